// The derived-variable parser (expression.h): precedence and associativity against hand-written
// fully parenthesised forms (Python's rules), units and aliases, every error with its column,
// the length and nesting limits at their edges, and the variables a tree reads.
#include <QtTest>
#include <string>

#include "strata/core/error.h"
#include "strata/core/expression.h"

using namespace strata;

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

// "alias.name" or "name", comma-separated.
QString refsText(const std::vector<VariableRef>& refs) {
    QStringList out;
    for (const VariableRef& r : refs) out << q(r.alias.empty() ? r.name : r.alias + "." + r.name);
    return out.join(',');
}

std::string repeat(const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
}

} // namespace

class TestExpression : public QObject {
    Q_OBJECT
private slots:
    void precedence_data() {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("expected");
        QTest::newRow("mul over add") << "a + b * c"
                                      << "(a + (b * c))";
        QTest::newRow("sub left") << "a - b - c"
                                  << "((a - b) - c)";
        QTest::newRow("sub then add") << "a - b + c"
                                      << "((a - b) + c)";
        QTest::newRow("div left") << "a / b / c"
                                  << "((a / b) / c)";
        QTest::newRow("mul div left") << "a * b / c * d"
                                      << "(((a * b) / c) * d)";
        QTest::newRow("pow right") << "a ** b ** c"
                                   << "(a ** (b ** c))";
        QTest::newRow("neg pow") << "-x**2"
                                 << "(-(x ** 2))";
        QTest::newRow("pow neg exponent") << "2**-1"
                                          << "(2 ** (-1))";
        QTest::newRow("pow neg pow") << "a ** -b ** c"
                                     << "(a ** (-(b ** c)))";
        QTest::newRow("neg mul") << "-a * b"
                                 << "((-a) * b)";
        QTest::newRow("mul neg") << "a * -b"
                                 << "(a * (-b))";
        QTest::newRow("neg neg") << "- -a"
                                 << "(-(-a))";
        QTest::newRow("not pow") << "~a ** 2"
                                 << "(~(a ** 2))";
        QTest::newRow("and over or") << "a | b & c"
                                     << "(a | (b & c))";
        QTest::newRow("not and or") << "~a & b | c"
                                    << "(((~a) & b) | c)";
        QTest::newRow("or left") << "a | b | c"
                                 << "((a | b) | c)";
        QTest::newRow("add over and") << "a & b + c"
                                      << "(a & (b + c))";
        QTest::newRow("cmp below add") << "a + b < c * d"
                                       << "((a + b) < (c * d))";
        QTest::newRow("cmp below or") << "a == b | c"
                                      << "(a == (b | c))";
        QTest::newRow("le") << "a <= b"
                            << "(a <= b)";
        QTest::newRow("ge") << "a >= -b"
                            << "(a >= (-b))";
        QTest::newRow("ne") << "a != b"
                            << "(a != b)";
        QTest::newRow("gt") << "a>b"
                            << "(a > b)";
        QTest::newRow("masks") << "(a > 0) & (b < 1)"
                               << "((a > 0) & (b < 1))";
        QTest::newRow("not group") << "~(a >= 1)"
                                   << "(~(a >= 1))";
        QTest::newRow("parens") << "(a + b) * c"
                                << "((a + b) * c)";
        QTest::newRow("redundant parens") << "((a))"
                                          << "a";
        QTest::newRow("where") << "where(a > 0, a, 0)"
                               << "where((a > 0), a, 0)";
        QTest::newRow("hypot") << "hypot(u,v)"
                               << "hypot(u, v)";
        QTest::newRow("nested calls") << "sqrt(abs(x - 1))"
                                      << "sqrt(abs((x - 1)))";
        QTest::newRow("call in arithmetic") << "2 * log10(x) ** 2"
                                            << "(2 * (log10(x) ** 2))";
        QTest::newRow("anomaly years") << "anomaly(tas, \"month\", 1991, 2020)"
                                       << "anomaly(tas, \"month\", 1991, 2020)";
        QTest::newRow("single quotes") << "climatology(tas, 'season')"
                                       << "climatology(tas, \"season\")";
        QTest::newRow("std_anomaly") << "std_anomaly(b.tas, 'dayofyear')"
                                     << "std_anomaly(b.tas, \"dayofyear\")";
        QTest::newRow("rolling") << "rolling_mean(tas, \"time\", 30)"
                                 << "rolling_mean(tas, \"time\", 30)";
        QTest::newRow("diff") << "diff(tas, 'lat') / 2"
                              << "(diff(tas, \"lat\") / 2)";
        QTest::newRow("clip") << "clip(x, -1, 1)"
                              << "clip(x, (-1), 1)";
        QTest::newRow("numbers") << "1.5e3 + .5 + 5. + 1E-3"
                                 << "(((1500 + 0.5) + 5) + 0.001)";
        QTest::newRow("kelvin") << "tas - 273.15"
                                << "(tas - 273.15)";
        QTest::newRow("function name as variable") << "log(log)"
                                                   << "log(log)";
        QTest::newRow("whitespace") << "\ta\t+ \nb "
                                    << "(a + b)";
    }
    void precedence() {
        QFETCH(QString, body);
        QFETCH(QString, expected);
        const Expression e = parseExpression("t = " + body.toStdString());
        QCOMPARE(q(toString(e.root)), expected);
        // The canonical form reads back as the same tree.
        QCOMPARE(q(toString(parseExpression("t = " + toString(e.root)).root)), expected);
    }

    // The tree itself, for one case: -x**2 is a negation of a power.
    void treeShape() {
        const Expression e = parseExpression("t = -x**2");
        QCOMPARE(e.root.kind, ExprNode::Kind::Unary);
        QCOMPARE(e.root.op, ExprOp::Negate);
        QCOMPARE(e.root.column, 5);
        const ExprNode& pow = e.root.args.at(0);
        QCOMPARE(pow.kind, ExprNode::Kind::Binary);
        QCOMPARE(pow.op, ExprOp::Power);
        QCOMPARE(pow.args.at(0).kind, ExprNode::Kind::Variable);
        QCOMPARE(q(pow.args.at(0).name), QString("x"));
        QCOMPARE(pow.args.at(1).kind, ExprNode::Kind::Number);
        QCOMPARE(pow.args.at(1).number, 2.0);
        QCOMPARE(pow.args.at(1).column, 9);
    }

    void statement_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("units");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("plain") << "t = tas"
                               << "t"
                               << ""
                               << "t = tas";
        QTest::newRow("units") << "t [degC] = tas - 273.15"
                               << "t"
                               << "degC"
                               << "t [degC] = (tas - 273.15)";
        QTest::newRow("units with spaces") << "speed[m s-1]=hypot(u,v)"
                                           << "speed"
                                           << "m s-1"
                                           << "speed [m s-1] = hypot(u, v)";
        QTest::newRow("units trimmed") << "  d [ K ] = a.tas - b.tas "
                                       << "d"
                                       << "K"
                                       << "d [K] = (a.tas - b.tas)";
        QTest::newRow("alias") << "_x2 = b.tas"
                               << "_x2"
                               << ""
                               << "_x2 = b.tas";
        QTest::newRow("non-ascii units") << "t [°C] = tas"
                                         << "t"
                                         << "°C"
                                         << "t [°C] = tas";
        QTest::newRow("units with equals") << "r [a=b] = x"
                                           << "r"
                                           << "a=b"
                                           << "r [a=b] = x";
    }
    void statement() {
        QFETCH(QString, text);
        QFETCH(QString, name);
        QFETCH(QString, units);
        QFETCH(QString, canonical);
        const Expression e = parseExpression(text.toStdString());
        QCOMPARE(q(e.text), text);
        QCOMPARE(q(e.name), name);
        QCOMPARE(q(e.units), units);
        QCOMPARE(q(toString(e)), canonical);
    }

    void aliasNode() {
        const Expression e = parseExpression("t = b.tas");
        QCOMPARE(e.root.kind, ExprNode::Kind::Variable);
        QCOMPARE(q(e.root.alias), QString("b"));
        QCOMPARE(q(e.root.name), QString("tas"));
        const Expression plain = parseExpression("t = tas");
        QVERIFY(plain.root.alias.empty());
    }

    void errors_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("problem");
        QTest::newRow("operand missing, space") << "t = tas - " << 10 << "an operand is missing at the end";
        QTest::newRow("operand missing") << "t = tas -" << 10 << "an operand is missing at the end";
        QTest::newRow("unclosed paren") << "t = (tas" << 5 << "'(' is not closed";
        QTest::newRow("extra paren") << "t = tas)" << 8 << "')' has no matching '('";
        QTest::newRow("two operators") << "t = tas * * 2" << 11 << "an operand is missing before '*'";
        QTest::newRow("two operands") << "t = a b" << 7 << "expected an operator or the end, found 'b'";
        QTest::newRow("empty parens") << "t = ()" << 6 << "an operand is missing before ')'";
        QTest::newRow("bad character") << "t = a $ b" << 7 << "unexpected character '$'";
        QTest::newRow("control byte") << "t = a\x01" << 6 << "unexpected character (byte 1)";
        QTest::newRow("second equals") << "t = a = b" << 7 << "'=' may appear once";
        QTest::newRow("floor division") << "t = a // b" << 8 << "an operand is missing before '/'";
        QTest::newRow("string alone") << "t = \"month\"" << 5 << "a string may only be a group or a dim";
        QTest::newRow("string operand") << "t = tas + 'x'" << 11 << "a string may only be";
        QTest::newRow("string argument") << "t = hypot(u, \"v\")" << 14 << "a string may only be";
        QTest::newRow("unclosed string") << "t = 'month" << 5 << "the string is not closed";
        QTest::newRow("exponent digits") << "t = 1e" << 6 << "exponent has no digits";
        QTest::newRow("number into name") << "t = 2tas" << 5 << "a number runs into a name";
        QTest::newRow("number range") << "t = 1e999" << 5 << "out of a double's range";
        QTest::newRow("chained") << "t = a < b < c" << 11 << "comparisons cannot be chained";
        QTest::newRow("python pitfall") << "t = a > 0 & b < 1" << 15 << "comparisons cannot be chained";
        QTest::newRow("unknown function")
            << "t = foo(x)" << 5
            << "unknown function 'foo'; the functions are where, abs, sqrt, exp, log, "
               "log10, sin, cos, tan, arcsin, arccos, arctan, floor, ceil, isnan, "
               "arctan2, hypot, minimum, maximum, fillna, clip, climatology, anomaly, "
               "std_anomaly, rolling_mean, rolling_sum, diff";
        QTest::newRow("where count") << "t = 1 + where(a, b)" << 9 << "where takes 3 arguments, not 2";
        QTest::newRow("abs count") << "t = abs(a, b)" << 5 << "abs takes 1 argument, not 2";
        QTest::newRow("sqrt empty") << "t = sqrt()" << 5 << "sqrt takes 1 argument, not 0";
        QTest::newRow("diff count") << "t = diff(tas)" << 5 << "diff takes 2 arguments, not 1";
        QTest::newRow("clip count") << "t = clip(x, 1)" << 5 << "clip takes 3 arguments, not 2";
        QTest::newRow("anomaly three")
            << "t = anomaly(tas, \"month\", 1991)" << 5 << "anomaly takes 2 or 4 arguments";
        QTest::newRow("anomaly five")
            << "t = anomaly(tas, 'month', 1, 2, 3)" << 5 << "anomaly takes 2 or 4 arguments";
        QTest::newRow("bad group") << "t = anomaly(tas, \"week\")" << 18
                                   << "unknown group \"week\"; the groups are month, season, dayofyear, hour";
        QTest::newRow("group not string")
            << "t = climatology(tas, month)" << 22 << "climatology's second argument is the group";
        QTest::newRow("year fraction") << "t = anomaly(tas, 'month', 1991.5, 2020)" << 27
                                       << "anomaly's first year must be a whole number";
        QTest::newRow("year expression")
            << "t = anomaly(tas, 'month', 1991, y)" << 33 << "anomaly's last year must be a whole number";
        QTest::newRow("years reversed")
            << "t = std_anomaly(tas, 'month', 2020, 1991)" << 31 << "first year comes after its last year";
        QTest::newRow("window zero") << "t = rolling_mean(tas, \"time\", 0)" << 31
                                     << "window must be at least 1";
        QTest::newRow("window name") << "t = rolling_sum(tas, \"time\", n)" << 30
                                     << "window must be a whole number";
        QTest::newRow("dim not string") << "t = diff(tas, time)" << 15 << "diff's second argument is the dim";
        QTest::newRow("alias call") << "t = b.abs(x)" << 5 << "a function cannot have a dataset alias";
        QTest::newRow("alias no name") << "t = b." << 7 << "a variable name is missing after 'b.'";
        QTest::newRow("call unclosed") << "t = abs(x" << 8 << "'(' of abs is not closed";
        QTest::newRow("call trailing comma") << "t = hypot(x,)" << 13 << "an operand is missing before ')'";
        QTest::newRow("call missing comma") << "t = hypot(x y)" << 13 << "expected ',' or ')', found 'y'";
        QTest::newRow("name missing") << "= tas" << 1 << "a name is missing before '='";
        QTest::newRow("empty") << "" << 1 << "a name is missing";
        QTest::newRow("equals missing") << "tas - 273.15" << 5 << "'=' is missing after the name";
        QTest::newRow("equals missing after units") << "t [K] tas" << 7 << "'=' is missing after the name";
        QTest::newRow("name digit") << "2t = tas" << 1 << "'2t' is not a name";
        QTest::newRow("name alias") << "  b.t = tas" << 3 << "'b.t' is not a name";
        QTest::newRow("name call") << "f(x) = x" << 1 << "'f(x)' is not a name";
        QTest::newRow("body empty") << "t =   " << 4 << "the expression after '=' is empty";
        QTest::newRow("double equals") << "t == tas" << 4 << "'==' compares";
        QTest::newRow("units unclosed") << "t [K = tas" << 3 << "the units' '[' is not closed";
        QTest::newRow("units empty") << "t [ ] = tas" << 3 << "the units in '[]' are empty";
        // Columns count characters, not bytes: ° is two bytes.
        QTest::newRow("column after utf-8") << "t [°C] = tas $" << 14 << "unexpected character '$'";
    }
    void errors() {
        QFETCH(QString, text);
        QFETCH(int, column);
        QFETCH(QString, problem);
        const std::string statement = text.toStdString();
        try {
            parseExpression(statement);
            QFAIL("no error");
        } catch (const ValueError& e) {
            // expression "TEXT" column N: PROBLEM, on one line.
            std::string shown = statement;
            for (char& c : shown)
                if (static_cast<unsigned char>(c) < 0x20) c = ' ';
            const QString expectedStart =
                QString("expression \"%1\" column %2: ").arg(QString::fromStdString(shown)).arg(column);
            const QString message = QString::fromStdString(e.what());
            QVERIFY2(message.startsWith(expectedStart), e.what());
            QVERIFY2(message.mid(expectedStart.size()).contains(problem), e.what());
            QVERIFY(!message.contains('\n'));
        }
    }

    void lengthLimit() {
        QCOMPARE(kMaxExpressionLength, 4096);
        // "t = x+x+...+x" padded with spaces to the length.
        auto statement = [](int length) {
            std::string s = "t = " + repeat("x+", 1000) + "x";
            return s + std::string(std::size_t(length) - s.size(), ' ');
        };
        QCOMPARE(int(statement(4096).size()), 4096);
        const Expression ok = parseExpression(statement(4096));
        QCOMPARE(int(variableRefs(ok.root).size()), 1);
        try {
            parseExpression(statement(4097));
            QFAIL("no error");
        } catch (const ValueError& e) {
            QVERIFY2(std::string(e.what()).find("column 4097: longer than 4096 characters (4097)") !=
                         std::string::npos,
                     e.what());
        }
        // Characters, not bytes: 4096 characters of which some take two bytes pass.
        const std::string wide = "t [" + repeat("°", 10) + "] = x";
        QVERIFY_THROWS_NO_EXCEPTION(parseExpression(wide + std::string(4096 - (wide.size() - 10), ' ')));
        QVERIFY_THROWS_EXCEPTION(ValueError,
                                 parseExpression(wide + std::string(4097 - (wide.size() - 10), ' ')));
        // A long chain of one level is not nesting.
        const std::string chain = "t = " + repeat("x+", 2000) + "x";
        QCOMPARE(q(toString(parseExpression(chain).root)).count('('), 2000);
    }

    void depthLimit_data() {
        QTest::addColumn<QString>("prefix");   // repeated n times before "x"
        QTest::addColumn<QString>("suffix");   // repeated n times after
        QTest::addColumn<int>("columnOf65th"); // where the 65th level opens
        QTest::newRow("parentheses") << "("
                                     << ")" << 4 + 65;
        QTest::newRow("unary minus") << "-"
                                     << "" << 4 + 65;
        QTest::newRow("not") << "~ "
                             << "" << 4 + 2 * 64 + 1;
        QTest::newRow("calls") << "abs("
                               << ")" << 4 + 4 * 65;
        QTest::newRow("powers") << "x**"
                                << "" << 4 + 3 * 64 + 2;
    }
    void depthLimit() {
        QFETCH(QString, prefix);
        QFETCH(QString, suffix);
        QFETCH(int, columnOf65th);
        QCOMPARE(kMaxExpressionDepth, 64);
        auto statement = [&](int n) {
            return "t = " + repeat(prefix.toStdString(), n) + "x" + repeat(suffix.toStdString(), n);
        };
        QVERIFY_THROWS_NO_EXCEPTION(parseExpression(statement(64)));
        try {
            parseExpression(statement(65));
            QFAIL("no error");
        } catch (const ValueError& e) {
            const std::string want =
                "column " + std::to_string(columnOf65th) + ": nested deeper than 64 levels";
            QVERIFY2(std::string(e.what()).find(want) != std::string::npos, e.what());
        }
        // Within the length limit, far deeper input is refused too, not overflowing the stack.
        const int n = (4096 - 5) / int(prefix.size() + suffix.size());
        QVERIFY_THROWS_EXCEPTION(ValueError, parseExpression(statement(n)));
    }

    void variables_data() {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("refs");
        QTest::newRow("repeated") << "hypot(u, v) + u"
                                  << "u,v";
        QTest::newRow("aliases") << "b.tas - a.tas + tas"
                                 << "b.tas,a.tas,tas";
        QTest::newRow("same name, other datasets") << "tas - b.tas + b.tas"
                                                   << "tas,b.tas";
        QTest::newRow("in calls") << "where(isnan(x), fillna(y, 0), b.x)"
                                  << "x,y,b.x";
        QTest::newRow("strings are not variables") << "anomaly(tas, \"month\")"
                                                   << "tas";
        QTest::newRow("none") << "1 + 2"
                              << "";
        QTest::newRow("function-named variable") << "log(log)"
                                                 << "log";
        QTest::newRow("deep right") << "a - (b - (c - (d - a)))"
                                    << "a,b,c,d";
    }
    void variables() {
        QFETCH(QString, body);
        QFETCH(QString, refs);
        QCOMPARE(refsText(variableRefs(parseExpression("t = " + body.toStdString()).root)), refs);
    }
};

QTEST_APPLESS_MAIN(TestExpression)
#include "tst_expression.moc"
