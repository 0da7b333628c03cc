// The parser of derived-variable statements (expression.h): a lexer into tokens with their
// byte offsets, then recursive descent by precedence. Left-associative chains are loops; every
// recursion opens a nesting level, so the stack is bounded by kMaxExpressionDepth.
#include "strata/core/expression.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include "strata/core/error.h"

namespace strata {
namespace {

struct FunctionSignature {
    std::string_view name;
    int minArgs;
    int maxArgs;
};

// In the order issue 31 lists them; this order is the one an error shows.
constexpr std::array<FunctionSignature, 27> kFunctions{{
    {"where", 3, 3},        {"abs", 1, 1},         {"sqrt", 1, 1},    {"exp", 1, 1},
    {"log", 1, 1},          {"log10", 1, 1},       {"sin", 1, 1},     {"cos", 1, 1},
    {"tan", 1, 1},          {"arcsin", 1, 1},      {"arccos", 1, 1},  {"arctan", 1, 1},
    {"floor", 1, 1},        {"ceil", 1, 1},        {"isnan", 1, 1},   {"arctan2", 2, 2},
    {"hypot", 2, 2},        {"minimum", 2, 2},     {"maximum", 2, 2}, {"fillna", 2, 2},
    {"clip", 3, 3},         {"climatology", 2, 4}, {"anomaly", 2, 4}, {"std_anomaly", 2, 4},
    {"rolling_mean", 3, 3}, {"rolling_sum", 3, 3}, {"diff", 2, 2},
}};
constexpr std::array<std::string_view, 4> kGroups{"month", "season", "dayofyear", "hour"};

bool isGroupFunction(std::string_view f) {
    return f == "climatology" || f == "anomaly" || f == "std_anomaly";
}
bool isRollingFunction(std::string_view f) { return f == "rolling_mean" || f == "rolling_sum"; }

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isNameStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isNameChar(char c) { return isNameStart(c) || isDigit(c); }

bool isIdentifier(std::string_view s) {
    return !s.empty() && isNameStart(s[0]) && std::all_of(s.begin(), s.end(), isNameChar);
}

// 1-based column of a byte offset, counting UTF-8 characters.
int columnOf(std::string_view text, std::size_t offset) {
    int column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i)
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++column;
    return column;
}

// Control characters (a newline in a string, say) as spaces: a message stays on one line.
std::string oneLine(std::string s) {
    for (char& c : s)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
    return s;
}

} // namespace

void failInExpression(std::string_view statement, int column, const std::string& problem) {
    constexpr std::size_t kShown = 80; // a long statement is shown cut
    const std::string shown =
        std::string(statement.substr(0, kShown)) + (statement.size() > kShown ? "..." : "");
    STRATA_FAIL(ValueError,
                oneLine("expression \"" + shown + "\" column " + std::to_string(column) + ": " + problem));
}

namespace {

[[noreturn]] void failAt(std::string_view text, std::size_t offset, const std::string& problem) {
    failInExpression(text, columnOf(text, offset), problem);
}

enum class Tok { Number, Name, String, Op, End };

struct Token {
    Tok kind;
    std::string text; // the operator, the name, the string's content or the number as written
    std::size_t offset;
    double number = 0;
};

// Splits the expression part [begin, end) of the statement into tokens.
std::vector<Token> lex(std::string_view text, std::size_t begin) {
    static constexpr std::array<std::string_view, 5> kTwoChar{"**", "<=", ">=", "==", "!="};
    std::vector<Token> tokens;
    std::size_t i = begin;
    while (true) {
        while (i < text.size() && isSpace(text[i])) ++i;
        if (i >= text.size()) break;
        const char c = text[i];
        const std::size_t start = i;
        if (isDigit(c) || (c == '.' && i + 1 < text.size() && isDigit(text[i + 1]))) {
            while (i < text.size() && isDigit(text[i])) ++i;
            if (i < text.size() && text[i] == '.') ++i;
            while (i < text.size() && isDigit(text[i])) ++i;
            if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
                std::size_t j = i + 1;
                if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
                if (j >= text.size() || !isDigit(text[j]))
                    failAt(text, i, "the number's exponent has no digits");
                i = j;
                while (i < text.size() && isDigit(text[i])) ++i;
            }
            if (i < text.size() && isNameChar(text[i]))
                failAt(text, start,
                       "a number runs into a name: '" + std::string(text.substr(start, i + 1 - start)) + "'");
            Token t{Tok::Number, std::string(text.substr(start, i - start)), start};
            const std::string& digits = t.text; // from_chars: locale-independent, unlike strtod
            const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), t.number);
            if (ec == std::errc::result_out_of_range || (ec == std::errc() && std::isinf(t.number)))
                failAt(text, start, "the number " + t.text + " is out of a double's range");
            if (ec != std::errc() || ptr != digits.data() + digits.size())
                failAt(text, start, "'" + t.text + "' is not a number");
            tokens.push_back(std::move(t));
        } else if (isNameStart(c)) {
            while (i < text.size() && isNameChar(text[i])) ++i;
            tokens.push_back({Tok::Name, std::string(text.substr(start, i - start)), start});
        } else if (c == '"' || c == '\'') {
            const std::size_t close = text.find(c, i + 1);
            if (close == std::string_view::npos) failAt(text, start, "the string is not closed");
            tokens.push_back({Tok::String, std::string(text.substr(i + 1, close - i - 1)), start});
            i = close + 1;
        } else {
            const std::string_view two = text.substr(i, 2);
            if (std::find(kTwoChar.begin(), kTwoChar.end(), two) != kTwoChar.end()) {
                tokens.push_back({Tok::Op, std::string(two), start});
                i += 2;
            } else if (std::string_view("+-*/<>&|~(),.").find(c) != std::string_view::npos) {
                tokens.push_back({Tok::Op, std::string(1, c), start});
                ++i;
            } else if (c == '=') {
                failAt(text, start, "'=' may appear once, after the name; equality is '=='");
            } else {
                const bool printable =
                    static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7F;
                failAt(text, start,
                       printable ? "unexpected character '" + std::string(1, c) + "'"
                                 : "unexpected character (byte " +
                                       std::to_string(static_cast<unsigned char>(c)) + ")");
            }
        }
    }
    std::size_t last = text.size();
    while (last > begin && isSpace(text[last - 1])) --last;
    tokens.push_back({Tok::End, {}, last}); // just after the last character written
    return tokens;
}

class Parser {
public:
    Parser(std::string_view text, std::vector<Token> tokens) : text_(text), tokens_(std::move(tokens)) {}

    ExprNode parseAll() {
        ExprNode root = comparison();
        if (at(")")) fail(peek().offset, "')' has no matching '('");
        if (peek().kind != Tok::End) unexpected("an operator or the end");
        noString(root);
        return root;
    }

private:
    const Token& peek() const { return tokens_[pos_]; }
    bool at(std::string_view op) const { return peek().kind == Tok::Op && peek().text == op; }
    const Token& next() { return tokens_[pos_++]; }

    [[noreturn]] void fail(std::size_t offset, const std::string& problem) const {
        failAt(text_, offset, problem);
    }

    [[noreturn]] void unexpected(const std::string& wanted) const {
        const Token& t = peek();
        if (t.kind == Tok::End)
            fail(t.offset, wanted == "an operand" ? "an operand is missing at the end"
                                                  : "expected " + wanted + " at the end");
        const std::string found = t.kind == Tok::String ? "\"" + t.text + "\"" : "'" + t.text + "'";
        if (wanted == "an operand") fail(t.offset, "an operand is missing before " + found);
        fail(t.offset, "expected " + wanted + ", found " + found);
    }

    // Every recursion goes through a level: the parser's stack stays within the limit.
    struct Level {
        Level(Parser& p, std::size_t offset) : parser(p) {
            if (++parser.depth_ > kMaxExpressionDepth)
                parser.fail(offset, "nested deeper than " + std::to_string(kMaxExpressionDepth) + " levels");
        }
        ~Level() { --parser.depth_; }
        Parser& parser;
    };

    void noString(const ExprNode& n) const {
        if (n.kind == ExprNode::Kind::String)
            fail(offsetOf(n), "a string may only be a group or a dim argument, as in anomaly(x, \"month\")");
    }
    std::size_t offsetOf(const ExprNode& n) const { return offsets_.at(n.column); }

    ExprNode node(ExprNode::Kind kind, std::size_t offset) {
        ExprNode n;
        n.kind = kind;
        n.column = columnOf(text_, offset);
        offsets_.resize(std::max<std::size_t>(offsets_.size(), std::size_t(n.column) + 1));
        offsets_[n.column] = offset;
        return n;
    }

    ExprNode binary(ExprOp op, ExprNode left, ExprNode right) {
        noString(left);
        noString(right);
        ExprNode n = node(ExprNode::Kind::Binary, offsetOf(left));
        n.op = op;
        n.args.push_back(std::move(left));
        n.args.push_back(std::move(right));
        return n;
    }

    ExprNode comparison() {
        static constexpr std::array<std::pair<std::string_view, ExprOp>, 6> kOps{
            {{"<", ExprOp::Less},
             {"<=", ExprOp::LessEqual},
             {">", ExprOp::Greater},
             {">=", ExprOp::GreaterEqual},
             {"==", ExprOp::Equal},
             {"!=", ExprOp::NotEqual}}};
        auto find = [&]() {
            for (const auto& [text, op] : kOps)
                if (at(text)) return &op;
            return static_cast<const ExprOp*>(nullptr);
        };
        ExprNode left = bitOr();
        const ExprOp* op = find();
        if (!op) return left;
        next();
        ExprNode result = binary(*op, std::move(left), bitOr());
        if (find()) fail(peek().offset, "comparisons cannot be chained: write (a < b) & (b < c)");
        return result;
    }

    ExprNode bitOr() {
        ExprNode left = bitAnd();
        while (at("|")) {
            next();
            left = binary(ExprOp::Or, std::move(left), bitAnd());
        }
        return left;
    }

    ExprNode bitAnd() {
        ExprNode left = additive();
        while (at("&")) {
            next();
            left = binary(ExprOp::And, std::move(left), additive());
        }
        return left;
    }

    ExprNode additive() {
        ExprNode left = multiplicative();
        while (at("+") || at("-")) {
            const Token& t = next();
            const ExprOp op = t.text == "+" ? ExprOp::Add : ExprOp::Subtract;
            left = binary(op, std::move(left), multiplicative());
        }
        return left;
    }

    ExprNode multiplicative() {
        ExprNode left = unary();
        while (at("*") || at("/")) {
            const Token& t = next();
            const ExprOp op = t.text == "*" ? ExprOp::Multiply : ExprOp::Divide;
            left = binary(op, std::move(left), unary());
        }
        return left;
    }

    ExprNode unary() {
        if (!at("-") && !at("~")) return power();
        const Token& t = next();
        Level level(*this, t.offset);
        ExprNode n = node(ExprNode::Kind::Unary, t.offset);
        n.op = t.text == "-" ? ExprOp::Negate : ExprOp::Not;
        ExprNode operand = unary();
        noString(operand);
        n.args.push_back(std::move(operand));
        return n;
    }

    ExprNode power() {
        ExprNode base = primary();
        if (!at("**")) return base;
        const Token& t = next();
        Level level(*this, t.offset);
        return binary(ExprOp::Power, std::move(base), unary());
    }

    ExprNode primary() {
        const Token& t = peek();
        if (t.kind == Tok::Number) {
            ExprNode n = node(ExprNode::Kind::Number, t.offset);
            n.number = next().number;
            return n;
        }
        if (t.kind == Tok::String) {
            ExprNode n = node(ExprNode::Kind::String, t.offset);
            n.name = next().text;
            return n;
        }
        if (t.kind == Tok::Name) return nameOrCall();
        if (at("(")) {
            const std::size_t open = next().offset;
            Level level(*this, open);
            ExprNode inner = comparison();
            if (peek().kind == Tok::End) fail(open, "'(' is not closed");
            if (!at(")")) unexpected("an operator or ')'");
            next();
            return inner;
        }
        unexpected("an operand");
    }

    ExprNode nameOrCall() {
        const Token& first = next();
        ExprNode n = node(ExprNode::Kind::Variable, first.offset);
        n.name = first.text;
        if (at(".")) {
            next();
            if (peek().kind != Tok::Name)
                fail(peek().offset, "a variable name is missing after '" + first.text + ".'");
            n.alias = first.text;
            n.name = next().text;
            if (at("("))
                fail(first.offset,
                     "a function cannot have a dataset alias: '" + n.alias + "." + n.name + "'");
            return n;
        }
        if (!at("(")) return n;
        return call(first);
    }

    ExprNode call(const Token& nameToken) {
        const std::string& fname = nameToken.text;
        const auto sig = std::find_if(kFunctions.begin(), kFunctions.end(),
                                      [&](const FunctionSignature& s) { return s.name == fname; });
        if (sig == kFunctions.end()) {
            std::string known;
            for (const FunctionSignature& s : kFunctions)
                known += (known.empty() ? "" : ", ") + std::string(s.name);
            fail(nameToken.offset, "unknown function '" + fname + "'; the functions are " + known);
        }
        ExprNode n = node(ExprNode::Kind::Call, nameToken.offset);
        n.name = fname;
        const std::size_t open = next().offset;
        Level level(*this, open);
        if (!at(")")) {
            while (true) {
                n.args.push_back(comparison());
                if (at(",")) {
                    next();
                    continue;
                }
                if (at(")")) break;
                if (peek().kind == Tok::End) fail(open, "'(' of " + fname + " is not closed");
                unexpected("',' or ')'");
            }
        }
        next(); // ')'
        const int count = int(n.args.size());
        if (count < sig->minArgs || count > sig->maxArgs || (isGroupFunction(fname) && count == 3)) {
            if (isGroupFunction(fname))
                fail(nameToken.offset,
                     fname + " takes 2 or 4 arguments (x, \"GROUP\", FIRST_YEAR, LAST_YEAR), not " +
                         std::to_string(count));
            const int want = sig->minArgs; // the others take one count
            fail(nameToken.offset, fname + " takes " + std::to_string(want) +
                                       (want == 1 ? " argument" : " arguments") + ", not " +
                                       std::to_string(count));
        }
        checkArguments(n);
        return n;
    }

    // A call's string and whole-number arguments, and strings nowhere else.
    void checkArguments(const ExprNode& call) const {
        const std::string& f = call.name;
        const bool group = isGroupFunction(f);
        const bool dim = isRollingFunction(f) || f == "diff";
        for (std::size_t i = 0; i < call.args.size(); ++i) {
            const ExprNode& a = call.args[i];
            if (i == 1 && (group || dim)) {
                if (a.kind != ExprNode::Kind::String)
                    fail(offsetOf(a), f + "'s second argument is the " + (group ? "group" : "dim") +
                                          ", a string such as " + (group ? "\"month\"" : "\"time\""));
                if (group && std::find(kGroups.begin(), kGroups.end(), a.name) == kGroups.end())
                    fail(offsetOf(a),
                         "unknown group \"" + a.name + "\"; the groups are month, season, dayofyear, hour");
                if (dim && a.name.empty()) fail(offsetOf(a), f + "'s dim is empty");
                continue;
            }
            noString(a);
            const bool years = group && i >= 2;
            const bool window = isRollingFunction(f) && i == 2;
            if (!years && !window) continue;
            const char* what = years ? (i == 2 ? "first year" : "last year") : "window";
            if (a.kind != ExprNode::Kind::Number || a.number != std::floor(a.number) ||
                std::abs(a.number) > 1e9)
                fail(offsetOf(a), f + "'s " + what + " must be a whole number written out, as in " +
                                      (years ? "1991" : "30"));
            if (window && a.number < 1) fail(offsetOf(a), f + "'s window must be at least 1");
        }
        if (group && call.args.size() == 4 && call.args[2].number > call.args[3].number)
            fail(offsetOf(call.args[2]), f + "'s first year comes after its last year");
    }

    std::string_view text_;
    std::vector<Token> tokens_;
    std::size_t pos_ = 0;
    int depth_ = 0;
    std::vector<std::size_t> offsets_; // byte offset of each column a node starts at
};

} // namespace

Expression parseExpression(std::string_view text) {
    const int length = columnOf(text, text.size()) - 1;
    if (length > kMaxExpressionLength) {
        std::size_t past = 0; // the first character over the limit
        for (int seen = 0; seen <= kMaxExpressionLength; ++past)
            if ((static_cast<unsigned char>(text[past]) & 0xC0) != 0x80) ++seen;
        --past;
        failAt(text, past,
               "longer than " + std::to_string(kMaxExpressionLength) + " characters (" +
                   std::to_string(length) + ")");
    }
    Expression e;
    e.text = std::string(text);
    // NAME [units] =
    std::size_t i = 0;
    while (i < text.size() && isSpace(text[i])) ++i;
    const std::size_t nameStart = i;
    while (i < text.size() && !isSpace(text[i]) && text[i] != '[' && text[i] != '=') ++i;
    e.name = std::string(text.substr(nameStart, i - nameStart));
    while (i < text.size() && isSpace(text[i])) ++i;
    if (e.name.empty()) {
        if (i < text.size() && text[i] == '=') failAt(text, i, "a name is missing before '='");
        failAt(text, i, "a name is missing: write NAME = EXPR");
    }
    if (!isIdentifier(e.name))
        failAt(text, nameStart,
               "'" + e.name +
                   "' is not a name: write NAME = EXPR, with a name of letters, digits and '_' "
                   "not starting with a digit");
    if (i < text.size() && text[i] == '[') {
        const std::size_t close = text.find(']', i);
        if (close == std::string_view::npos) failAt(text, i, "the units' '[' is not closed");
        std::size_t a = i + 1, b = close;
        while (a < b && isSpace(text[a])) ++a;
        while (b > a && isSpace(text[b - 1])) --b;
        if (a == b) failAt(text, i, "the units in '[]' are empty");
        e.units = std::string(text.substr(a, b - a));
        i = close + 1;
        while (i < text.size() && isSpace(text[i])) ++i;
    }
    if (i >= text.size() || text[i] != '=')
        failAt(text, i, "'=' is missing after the name: write " + e.name + " = EXPR");
    const std::size_t body = i + 1;
    std::size_t first = body;
    while (first < text.size() && isSpace(text[first])) ++first;
    if (first >= text.size()) failAt(text, i + 1, "the expression after '=' is empty");
    if (text[first] == '=') failAt(text, first, "'==' compares: write NAME = EXPR");
    Parser parser(text, lex(text, body));
    e.root = parser.parseAll();
    return e;
}

} // namespace strata
