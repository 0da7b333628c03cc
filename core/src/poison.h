#pragma once
// Test hook: while a pattern is set, every new Buffer is filled with that byte, so a test that
// runs an operation under two patterns and gets the same result knows every element was written.
namespace strata::detail {
void setPoisonPattern(int byteOrMinus1); // -1 turns it off
int poisonPattern();
} // namespace strata::detail
