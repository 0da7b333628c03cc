#pragma once
// The language of derived variables (issue 31): `NAME = EXPR` or `NAME [units] = EXPR`, parsed
// into a plain tree. This is the parser alone; nothing here evaluates.
//
// Precedence, lowest first, as in Python and NumPy:
//   comparisons (< <= > >= == !=, not chained) | & (+ -) (* /) unary (- ~) ** primary
// `**` is right-associative and binds tighter than a unary operator on its left (-x**2 is
// -(x**2)); its right operand may be unary (2**-1). Like Python, `a > 0 & b` is a > (0 & b):
// masks are combined as (a > 0) & (b < 1).
#include <string>
#include <string_view>
#include <vector>

namespace strata {

// An operator of a unary or binary node.
enum class ExprOp {
    Negate, // -x
    Not,    // ~x
    Add,
    Subtract,
    Multiply,
    Divide,
    Power,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    Equal,
    NotEqual,
    And, // &
    Or,  // |
};

// One node of a parsed expression: plain, copyable data. A call's arguments and an operator's
// operands are its children, in the order written.
struct ExprNode {
    enum class Kind { Number, Variable, String, Unary, Binary, Call };
    Kind kind = Kind::Number;
    double number = 0;          // Number
    std::string alias;          // Variable: the dataset's alias (the b of b.tas), empty for the open one
    std::string name;           // Variable: its name; Call: the function; String: the text
    ExprOp op = ExprOp::Negate; // Unary, Binary
    std::vector<ExprNode> args; // Unary: 1, Binary: 2, Call: the arguments
    int column = 0;             // 1-based column in the statement where the node starts
};

// A parsed statement `NAME [units] = EXPR`.
struct Expression {
    std::string text;  // the statement as written
    std::string name;  // the derived variable's name
    std::string units; // the units set in brackets; empty when none were set
    ExprNode root;
};

// The limits the parser enforces: characters of a statement, and levels of nesting (each
// parenthesis, function call, unary operator and exponent of ** opens one).
inline constexpr int kMaxExpressionLength = 4096;
inline constexpr int kMaxExpressionDepth = 64;

// Parses a statement. Throws ValueError with a one-line message naming the column and showing
// the text: syntax errors, unknown functions, wrong argument counts, bad group names or
// arguments, the limits above, a missing name or '='.
//
// The functions, with their arguments: where(c, a, b); abs sqrt exp log log10 sin cos tan
// arcsin arccos arctan floor ceil isnan (x); arctan2 hypot minimum maximum fillna (x, y);
// clip(x, lo, hi); climatology anomaly std_anomaly (x, "GROUP" [, FIRST_YEAR, LAST_YEAR]) with
// GROUP one of month, season, dayofyear, hour and the years whole numbers; rolling_mean
// rolling_sum (x, "DIM", N) with N a whole number >= 1; diff(x, "DIM"). Strings appear only as
// those GROUP and DIM arguments.
Expression parseExpression(std::string_view text);

// Throws ValueError as the parser does for a problem found later (an unknown variable, dims
// that do not match): the statement, the 1-based column and the problem, on one line.
[[noreturn]] void failInExpression(std::string_view statement, int column, const std::string& problem);

// The expression in a canonical, fully parenthesised form: `(a + (b * c))`, `(-x)`,
// `f(a, "month")`, numbers in their shortest exact form. It parses back to the same tree when
// it stays within the limits (a long chain's parentheses may not).
std::string toString(const ExprNode& node);
// `NAME = canonical` or `NAME [units] = canonical`.
std::string toString(const Expression& expression);

// A variable an expression reads: b.tas is {"b", "tas"}, tas is {"", "tas"}.
struct VariableRef {
    std::string alias;
    std::string name;
    bool operator==(const VariableRef&) const = default;
};
// The variables a tree reads, each once, in the order they first appear.
std::vector<VariableRef> variableRefs(const ExprNode& node);

} // namespace strata
