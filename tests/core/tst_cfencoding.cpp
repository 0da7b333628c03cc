// CfEncoding::fromAttributes: masking values, valid ranges, packing, decoded types, the
// masking values it ignores with a warning and the problems it names.
#include <QtTest>

#include <cmath>

#include "strata/core/cf.h"

using namespace strata;

namespace {

Attribute num(const char* name, DType type, std::vector<double> v) {
    Attribute a;
    a.name = name;
    a.type = type;
    if (isFloating(type))
        a.value = std::move(v);
    else if (isSignedInteger(type))
        a.value = std::vector<std::int64_t>(v.begin(), v.end());
    else
        a.value = std::vector<std::uint64_t>(v.begin(), v.end());
    return a;
}

Attribute text(const char* name, const char* value) {
    Attribute a;
    a.name = name;
    a.type = DType::Char;
    a.value = std::string(value);
    return a;
}

Attributes attrs(std::initializer_list<Attribute> list) {
    Attributes out;
    for (const auto& a : list) out.set(a);
    return out;
}

} // namespace

class TestCfEncoding : public QObject {
    Q_OBJECT
private slots:
    void noAttributesIsIdentity() {
        for (DType t : {DType::Int8, DType::UInt16, DType::Int64, DType::Float32, DType::Float64}) {
            const CfEncoding e = CfEncoding::fromAttributes(Attributes{}, t);
            QVERIFY(e.isIdentity());
            QCOMPARE(e.packed, t);
            QCOMPARE(e.decoded, t);
            QVERIFY(e.problem.empty());
            QVERIFY(e.warnings.empty());
        }
        const CfEncoding units = CfEncoding::fromAttributes(attrs({text("units", "K")}), DType::Float32);
        QVERIFY(units.isIdentity());
    }
    void packedShort() {
        // reduced.nc's sst: short, scale_factor 0.01f, add_offset 0f, _FillValue = missing_value = -999s.
        const CfEncoding e = CfEncoding::fromAttributes(
            attrs({num("add_offset", DType::Float32, {0}), num("scale_factor", DType::Float32, {0.01f}),
                   num("_FillValue", DType::Int16, {-999}), num("missing_value", DType::Int16, {-999})}),
            DType::Int16);
        QVERIFY(e.problem.empty());
        QCOMPARE(e.packed, DType::Int16);
        QCOMPARE(e.decoded, DType::Float32);
        QVERIFY(e.scaled);
        QCOMPARE(e.scale, double(0.01f));
        QCOMPARE(e.offset, 0.0);
        QCOMPARE(e.fillValues, std::vector<double>{-999}); // the same value once
        QVERIFY(!e.isIdentity());
    }
    void decodedTypes_data() {
        QTest::addColumn<int>("packed");
        QTest::addColumn<int>("scaleType"); // -1: no scale_factor
        QTest::addColumn<bool>("fill");
        QTest::addColumn<int>("decoded");
        QTest::newRow("int8 masked") << int(DType::Int8) << -1 << true << int(DType::Float32);
        QTest::newRow("uint16 masked") << int(DType::UInt16) << -1 << true << int(DType::Float32);
        QTest::newRow("int32 masked") << int(DType::Int32) << -1 << true << int(DType::Float64);
        QTest::newRow("uint64 masked") << int(DType::UInt64) << -1 << true << int(DType::Float64);
        QTest::newRow("float masked") << int(DType::Float32) << -1 << true << int(DType::Float32);
        QTest::newRow("double masked") << int(DType::Float64) << -1 << true << int(DType::Float64);
        QTest::newRow("short * double")
            << int(DType::Int16) << int(DType::Float64) << false << int(DType::Float64);
        QTest::newRow("ubyte * float")
            << int(DType::UInt8) << int(DType::Float32) << false << int(DType::Float32);
        QTest::newRow("int * float") << int(DType::Int32) << int(DType::Float32) << true
                                     << int(DType::Float32);
        QTest::newRow("short * int") << int(DType::Int16) << int(DType::Int32) << false
                                     << int(DType::Float32);
        QTest::newRow("int * int") << int(DType::Int32) << int(DType::Int32) << false << int(DType::Float64);
        QTest::newRow("double * float")
            << int(DType::Float64) << int(DType::Float32) << false << int(DType::Float64);
        QTest::newRow("int unmasked") << int(DType::Int32) << -1 << false << int(DType::Int32);
    }
    void decodedTypes() {
        QFETCH(int, packed);
        QFETCH(int, scaleType);
        QFETCH(bool, fill);
        QFETCH(int, decoded);
        Attributes a;
        if (scaleType >= 0) a.set(num("scale_factor", DType(scaleType), {2}));
        if (fill) a.set(num("_FillValue", DType(packed), {7}));
        const CfEncoding e = CfEncoding::fromAttributes(a, DType(packed));
        QVERIFY2(e.problem.empty(), e.problem.c_str());
        QCOMPARE(int(e.decoded), decoded);
        QCOMPARE(e.scaled, scaleType >= 0);
        if (scaleType >= 0) QCOMPARE(e.scale, 2.0);
    }
    void addOffsetAlone() {
        const CfEncoding e =
            CfEncoding::fromAttributes(attrs({num("add_offset", DType::Float64, {273.15})}), DType::Int16);
        QVERIFY(e.scaled);
        QCOMPARE(e.scale, 1.0);
        QCOMPARE(e.offset, 273.15);
        QCOMPARE(e.decoded, DType::Float64);
    }
    void fillOfAnotherType() {
        // A double _FillValue on float data: converted to float, as the stored values compare.
        const CfEncoding f =
            CfEncoding::fromAttributes(attrs({num("_FillValue", DType::Float64, {1e20})}), DType::Float32);
        QVERIFY(f.problem.empty());
        QCOMPARE(f.fillValues, std::vector<double>{double(1e20f)});
        QVERIFY(f.fillValues[0] != 1e20); // 1e20 is not a float; its float neighbour is what the file holds
        // A double -999 on shorts is fine.
        const CfEncoding s =
            CfEncoding::fromAttributes(attrs({num("_FillValue", DType::Float64, {-999})}), DType::Int16);
        QVERIFY(s.problem.empty());
        QCOMPARE(s.fillValues, std::vector<double>{-999});
        // NaN fills on floats are kept.
        const CfEncoding n = CfEncoding::fromAttributes(
            attrs({num("missing_value", DType::Float32, {std::nan("")})}), DType::Float32);
        QCOMPARE(n.fillValues.size(), std::size_t(1));
        QVERIFY(std::isnan(n.fillValues[0]));
    }
    void unrepresentableFill_data() {
        QTest::addColumn<int>("packed");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("valueText");
        QTest::addColumn<int>("decoded"); // as xarray: NaN fills are dropped, others still promote
        QTest::newRow("NaN in short") << int(DType::Int16) << std::nan("") << "NaN" << int(DType::Int16);
        QTest::newRow("NaN in int") << int(DType::Int32) << std::nan("") << "NaN" << int(DType::Int32);
        QTest::newRow("1e20 in short") << int(DType::Int16) << 1e20 << "1e+20" << int(DType::Float32);
        QTest::newRow("0.5 in int") << int(DType::Int32) << 0.5 << "0.5" << int(DType::Float64);
        QTest::newRow("-1 in ushort") << int(DType::UInt16) << -1.0 << "-1" << int(DType::Float32);
        QTest::newRow("300 in byte") << int(DType::Int8) << 300.0 << "300" << int(DType::Float32);
        QTest::newRow("1e300 in float") << int(DType::Float32) << 1e300 << "1e+300" << int(DType::Float32);
    }
    void unrepresentableFill() {
        QFETCH(int, packed);
        QFETCH(double, value);
        QFETCH(QString, valueText);
        QFETCH(int, decoded);
        for (const char* attr : {"_FillValue", "missing_value"}) {
            const CfEncoding e =
                CfEncoding::fromAttributes(attrs({num(attr, DType::Float64, {value})}), DType(packed));
            QVERIFY2(e.problem.empty(), e.problem.c_str()); // the variable is not refused
            QVERIFY(e.fillValues.empty());
            QCOMPARE(int(e.decoded), decoded);
            QCOMPARE(e.warnings.size(), std::size_t(1));
            QCOMPARE(QString::fromStdString(e.warnings[0].attribute), QString(attr));
            QCOMPARE(QString::fromStdString(e.warnings[0].text),
                     QString("attribute '%1' value %2 cannot be represented in %3; ignored, as xarray does")
                         .arg(attr, valueText, QString::fromLatin1(name(DType(packed)).data())));
        }
    }
    void nanFillOnPackedShort() {
        // As ECMWF reanalysis files carry it: decoded by scale and offset, nothing masked.
        const CfEncoding e = CfEncoding::fromAttributes(
            attrs({num("_FillValue", DType::Float64, {std::nan("")}),
                   num("scale_factor", DType::Float64, {0.01}), num("add_offset", DType::Float64, {250})}),
            DType::Int16);
        QVERIFY(e.problem.empty());
        QVERIFY(e.fillValues.empty());
        QVERIFY(e.scaled);
        QCOMPARE(e.scale, 0.01);
        QCOMPARE(e.offset, 250.0);
        QCOMPARE(e.decoded, DType::Float64);
        QCOMPARE(e.warnings.size(), std::size_t(1));
        QVERIFY(!e.isIdentity());
    }
    void unfitValuesAmongGoodOnes() {
        // missing_value {-1, NaN, 1e20, -2} on ints: -1 and -2 mask, the other two are named once.
        const CfEncoding e = CfEncoding::fromAttributes(
            attrs({num("missing_value", DType::Float64, {-1, std::nan(""), 1e20, -2})}), DType::Int32);
        QVERIFY(e.problem.empty());
        QCOMPARE(e.fillValues, (std::vector<double>{-1, -2}));
        QCOMPARE(e.warnings.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(e.warnings[0].text),
                 QString("attribute 'missing_value' value NaN (and 1 more) cannot be represented in int32; "
                         "ignored, as xarray does"));
    }
    void unusableMaskingAttributes_data() {
        QTest::addColumn<QString>("attribute");
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("warning");
        QTest::newRow("fill as text") << "_FillValue"
                                      << "text"
                                      << "attribute '_FillValue' is text (\"0.01\"), not a number; ignored, "
                                         "as xarray does";
        QTest::newRow("missing_value empty") << "missing_value"
                                             << "empty"
                                             << "attribute 'missing_value' has no values; ignored, as xarray "
                                                "does";
        QTest::newRow("valid_min as text") << "valid_min"
                                           << "text"
                                           << "attribute 'valid_min' is text (\"0.01\"), not a number; "
                                              "ignored";
        QTest::newRow("valid_max NaN") << "valid_max"
                                       << "NaN"
                                       << "attribute 'valid_max' value NaN cannot be compared with int16 "
                                          "values; ignored";
        QTest::newRow("valid_range with NaN") << "valid_range"
                                              << "NaN"
                                              << "attribute 'valid_range' value NaN cannot be compared with "
                                                 "int16 values; ignored";
    }
    void unusableMaskingAttributes() {
        QFETCH(QString, attribute);
        QFETCH(QString, what);
        QFETCH(QString, warning);
        const std::string a = attribute.toStdString();
        Attribute attr;
        if (what == "text")
            attr = text(a.c_str(), "0.01");
        else if (what == "empty")
            attr = num(a.c_str(), DType::Float32, {});
        else if (attribute == "valid_range")
            attr = num(a.c_str(), DType::Float32, {0, std::nanf("")});
        else
            attr = num(a.c_str(), DType::Float32, {std::nanf("")});
        const CfEncoding e = CfEncoding::fromAttributes(attrs({attr}), DType::Int16);
        QVERIFY2(e.problem.empty(), e.problem.c_str());
        QVERIFY(e.fillValues.empty() && !e.validMin && !e.validMax);
        QCOMPARE(e.warnings.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(e.warnings[0].attribute), attribute);
        QCOMPARE(QString::fromStdString(e.warnings[0].text), warning);
    }
    void ignoredBoundLeavesTheOther() {
        const CfEncoding e = CfEncoding::fromAttributes(
            attrs({num("valid_min", DType::Float64, {std::nan("")}), num("valid_max", DType::Int16, {10})}),
            DType::Int16);
        QVERIFY(e.problem.empty());
        QVERIFY(!e.validMin);
        QCOMPARE(*e.validMax, 10.0);
        QCOMPARE(e.warnings.size(), std::size_t(1));
        QCOMPARE(e.decoded, DType::Float32);
    }
    void severalMissingValues() {
        const CfEncoding e = CfEncoding::fromAttributes(
            attrs({num("_FillValue", DType::Int32, {-1}), num("missing_value", DType::Int32, {-2, -3, -1})}),
            DType::Int32);
        QVERIFY(e.problem.empty());
        QCOMPARE(e.fillValues, (std::vector<double>{-1, -2, -3}));
        QCOMPARE(e.decoded, DType::Float64);
    }
    void validRange() {
        const CfEncoding r =
            CfEncoding::fromAttributes(attrs({num("valid_range", DType::Int16, {0, 100})}), DType::Int16);
        QVERIFY(r.problem.empty());
        QCOMPARE(*r.validMin, 0.0);
        QCOMPARE(*r.validMax, 100.0);
        QCOMPARE(r.decoded, DType::Float32);
        const CfEncoding m = CfEncoding::fromAttributes(
            attrs({num("valid_min", DType::Float32, {-5}), num("valid_max", DType::Float32, {5})}),
            DType::Float32);
        QCOMPARE(*m.validMin, -5.0);
        QCOMPARE(*m.validMax, 5.0);
        const CfEncoding lo =
            CfEncoding::fromAttributes(attrs({num("valid_min", DType::Int8, {1})}), DType::Int8);
        QCOMPARE(*lo.validMin, 1.0);
        QVERIFY(!lo.validMax);
    }
    void problems_data() {
        QTest::addColumn<QString>("attribute");
        QTest::addColumn<QString>("what");
        QTest::newRow("scale as text") << "scale_factor"
                                       << "text";
        QTest::newRow("offset as text") << "add_offset"
                                        << "text";
        QTest::newRow("valid_range of 3") << "valid_range"
                                          << "3 values";
        QTest::newRow("valid_range reversed") << "valid_range"
                                              << "reversed";
        QTest::newRow("scale of 2") << "scale_factor"
                                    << "2 values";
        QTest::newRow("valid_min of 2") << "valid_min"
                                        << "2 values";
    }
    void problems() {
        QFETCH(QString, attribute);
        QFETCH(QString, what);
        const std::string a = attribute.toStdString();
        Attribute attr;
        if (what == "text")
            attr = text(a.c_str(), "0.01");
        else if (what == "3 values")
            attr = num(a.c_str(), DType::Float32, {0, 1, 2});
        else if (what == "reversed")
            attr = num(a.c_str(), DType::Float32, {10, 1});
        else
            attr = num(a.c_str(), DType::Float32, {1, 2});
        const CfEncoding e = CfEncoding::fromAttributes(attrs({attr}), DType::Int16);
        const QString p = QString::fromStdString(e.problem);
        QVERIFY2(p.contains("'" + attribute + "'") && p.contains(what), qPrintable(p));
        QVERIFY(e.warnings.empty());
        if (attribute == "scale_factor" || attribute == "add_offset") QVERIFY(e.scaled);
    }
    void twoProblemsBothNamed() {
        const CfEncoding e = CfEncoding::fromAttributes(
            attrs({text("scale_factor", "x"), num("valid_range", DType::Int16, {1})}), DType::Int16);
        const QString p = QString::fromStdString(e.problem);
        QVERIFY2(p.contains("scale_factor") && p.contains("valid_range"), qPrintable(p));
    }
    void textDataIsNotDecoded() {
        const CfEncoding e = CfEncoding::fromAttributes(
            attrs({num("_FillValue", DType::Int16, {1}), num("scale_factor", DType::Float32, {2})}),
            DType::Char);
        QVERIFY(e.isIdentity());
        QVERIFY(e.problem.empty());
        QCOMPARE(e.decoded, DType::Char);
    }
};

QTEST_APPLESS_MAIN(TestCfEncoding)
#include "tst_cfencoding.moc"
