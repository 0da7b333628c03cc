// Expression trees back to text, and the variables they read (expression.h).
#include <charconv>
#include <stdexcept>

#include "strata/core/expression.h"

namespace strata {
namespace {

const char* symbol(ExprOp op) {
    switch (op) {
    case ExprOp::Negate:
        return "-";
    case ExprOp::Not:
        return "~";
    case ExprOp::Add:
        return "+";
    case ExprOp::Subtract:
        return "-";
    case ExprOp::Multiply:
        return "*";
    case ExprOp::Divide:
        return "/";
    case ExprOp::Power:
        return "**";
    case ExprOp::Less:
        return "<";
    case ExprOp::LessEqual:
        return "<=";
    case ExprOp::Greater:
        return ">";
    case ExprOp::GreaterEqual:
        return ">=";
    case ExprOp::Equal:
        return "==";
    case ExprOp::NotEqual:
        return "!=";
    case ExprOp::And:
        return "&";
    case ExprOp::Or:
        return "|";
    }
    return "?";
}

// The shortest text that reads back as the same double.
std::string number(double v) {
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    if (ec != std::errc()) throw std::logic_error("expression: a number could not be written");
    return std::string(buf, end);
}

void write(const ExprNode& n, std::string& out) {
    switch (n.kind) {
    case ExprNode::Kind::Number:
        out += number(n.number);
        return;
    case ExprNode::Kind::Variable:
        if (!n.alias.empty()) out += n.alias + ".";
        out += n.name;
        return;
    case ExprNode::Kind::String: {
        // The lexer ends a string at its own quote, so one of the two kinds is free.
        const char quote = n.name.find('"') == std::string::npos ? '"' : '\'';
        out += quote + n.name + quote;
        return;
    }
    case ExprNode::Kind::Unary:
        out += "(";
        out += symbol(n.op);
        write(n.args.at(0), out);
        out += ")";
        return;
    case ExprNode::Kind::Binary:
        out += "(";
        write(n.args.at(0), out);
        out += std::string(" ") + symbol(n.op) + " ";
        write(n.args.at(1), out);
        out += ")";
        return;
    case ExprNode::Kind::Call:
        out += n.name + "(";
        for (std::size_t i = 0; i < n.args.size(); ++i) {
            if (i) out += ", ";
            write(n.args[i], out);
        }
        out += ")";
        return;
    }
}

} // namespace

std::string toString(const ExprNode& node) {
    std::string out;
    write(node, out);
    return out;
}

std::string toString(const Expression& expression) {
    std::string out = expression.name;
    if (!expression.units.empty()) out += " [" + expression.units + "]";
    return out + " = " + toString(expression.root);
}

std::vector<VariableRef> variableRefs(const ExprNode& node) {
    std::vector<VariableRef> refs;
    std::vector<const ExprNode*> stack{&node}; // depth-first, left to right, without recursion
    while (!stack.empty()) {
        const ExprNode* n = stack.back();
        stack.pop_back();
        if (n->kind == ExprNode::Kind::Variable) {
            VariableRef ref{n->alias, n->name};
            bool seen = false;
            for (const VariableRef& r : refs) seen = seen || r == ref;
            if (!seen) refs.push_back(std::move(ref));
        }
        for (auto it = n->args.rbegin(); it != n->args.rend(); ++it) stack.push_back(&*it);
    }
    return refs;
}

} // namespace strata
