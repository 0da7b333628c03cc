// libFuzzer target over the derived-variable parser (expression.h). The input is a statement
// as typed; it is also tried after "t = ", so that mutations reach the expression itself. The
// parser must return a tree or throw ValueError with a one-line message naming a column;
// anything else (another exception, a crash, a sanitizer report, runaway recursion) is a
// finding. A tree must print to a canonical form that, when it parses, prints the same.
// Built with -DSTRATA_FUZZ=ON by clang (scripts/fuzz.sh, STRATA_FUZZ_TARGET=fuzz_expression).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "strata/core/error.h"
#include "strata/core/expression.h"

namespace {

[[noreturn]] void finding(const char* what, const std::string& text) {
    std::fprintf(stderr, "fuzz_expression: %s: %s\n", what, text.c_str());
    std::abort();
}

void check(const std::string& text) {
    strata::Expression e;
    try {
        e = strata::parseExpression(text);
    } catch (const strata::ValueError& err) {
        const std::string message = err.what();
        if (message.find('\n') != std::string::npos || message.find("\" column ") == std::string::npos)
            finding("a message not on one line or without a column", message);
        return;
    }
    (void)strata::variableRefs(e.root);
    const std::string canonical = strata::toString(e);
    try {
        if (strata::toString(strata::parseExpression(canonical)) != canonical)
            finding("the canonical form does not print back the same", canonical);
    } catch (const strata::ValueError& err) {
        // Only the limits may refuse a canonical form: its parentheses add length and levels.
        const std::string message = err.what();
        if (message.find("nested deeper") == std::string::npos &&
            message.find("longer than") == std::string::npos)
            finding(("the canonical form does not parse: " + message).c_str(), canonical);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    check(text);
    check("t = " + text);
    return 0;
}
