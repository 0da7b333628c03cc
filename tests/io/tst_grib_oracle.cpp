// The GRIB reader against cfgrib (tests/io/grib_oracle.py: Debian's python3-cfgrib 0.9.10 with
// python3-eccodes, unpacked by scripts/setup.sh under ~/.cache/strata/grib-oracle). For every
// fixture of tests/data/grib, every variable cfgrib.open_datasets gives must be Strata's, in the
// group of its level type and step type, with the same dims, shape, attributes, coordinates (names,
// dims, values, attributes) and values (float32 from the same ecCodes decode: equal, NaN where
// cfgrib's are); and Strata has no variable cfgrib lacks.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <cmath>

#include "strata/io/grib.h"
#include "strata/io/netcdf.h"

using namespace strata;

namespace {

QString oraclePath() {
    const QByteArray cache = qgetenv("XDG_CACHE_HOME");
    const QString base = cache.isEmpty() ? QDir::homePath() + "/.cache" : QString::fromLocal8Bit(cache);
    return base + "/strata/grib-oracle/usr/lib/python3/dist-packages";
}

// cfgrib's view of `path`; an empty object (and `why`) when cfgrib cannot run here.
QJsonObject cfgribView(const QString& path, QString& why) {
    QProcess py;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PYTHONPATH", oraclePath());
    py.setProcessEnvironment(env);
    py.start("/usr/bin/python3", {QString(STRATA_SOURCE_DIR) + "/tests/io/grib_oracle.py", path});
    if (!py.waitForFinished(120000) || py.exitCode() != 0) {
        why = QString::fromLocal8Bit(py.readAllStandardError()).right(400);
        return {};
    }
    return QJsonDocument::fromJson(py.readAllStandardOutput()).object()[path].toObject();
}

// The variable `name` of `ds` or its groups whose GRIB level type and step type are these.
const Dataset* groupHolding(const Dataset& ds, const std::string& name, const std::string& level,
                            const std::string& stepType) {
    if (const Variable* v = ds.findVariable(name))
        if (v->attrs().text("GRIB_typeOfLevel") == level && v->attrs().text("GRIB_stepType") == stepType)
            return &ds;
    for (const Dataset& g : ds.groups)
        if (const Dataset* found = groupHolding(g, name, level, stepType)) return found;
    return nullptr;
}

// Data variables, the CF grid-mapping variables and UGRID meshes they name left out (cfgrib
// has none).
int countVariables(const Dataset& ds) {
    int n = 0;
    for (const std::string& name : ds.dataVariables()) {
        bool mapping = false;
        for (const auto& [other, v] : ds.variables) {
            mapping = mapping || v.attrs().text("grid_mapping") == name || v.attrs().text("mesh") == name;
            if (v.attrs().text("cf_role") == "mesh_topology")
                for (const char* key : {"node_coordinates", "face_node_connectivity"})
                    mapping =
                        mapping || (" " + v.attrs().text(key).value_or("") + " ").find(" " + name + " ") !=
                                       std::string::npos;
        }
        n += !mapping;
    }
    for (const Dataset& g : ds.groups) n += countVariables(g);
    return n;
}

std::vector<std::string> strings(const QJsonArray& a) {
    std::vector<std::string> out;
    for (const QJsonValue v : a) out.push_back(v.toString().toStdString());
    return out;
}

bool close(double a, double b, double rel) { return std::abs(a - b) <= rel * (1 + std::abs(b)); }

// An attribute of ours equals cfgrib's (text, or a number).
QString attrDiffers(const Attributes& ours, const QString& key, const QJsonValue& theirs) {
    const std::string k = key.toStdString();
    if (key == "standard_name" && theirs.toString() == "unknown") // ecCodes' "no CF name": we leave it out
        return ours.contains(k) ? key + " should be absent" : QString();
    const Attribute* a = ours.find(k);
    if (!a) return key + " is missing";
    if (theirs.isArray()) { // pl
        std::vector<double> want;
        for (const QJsonValue x : theirs.toArray()) want.push_back(x.toDouble());
        return a->numbers() == want ? QString() : key + ": " + QString::fromStdString(a->text()) + " differs";
    }
    if (theirs.isString())
        return a->isText() && a->text() == theirs.toString().toStdString()
                   ? QString()
                   : key + ": '" + QString::fromStdString(a->text()) + "', cfgrib '" + theirs.toString() +
                         "'";
    const std::vector<double> n = a->numbers();
    return n.size() == 1 && close(n[0], theirs.toDouble(), 1e-12)
               ? QString()
               : key + ": " + QString::fromStdString(a->text()) + ", cfgrib " +
                     QString::number(theirs.toDouble(), 'g', 17);
}

QString valuesDiffer(const std::vector<double>& ours, const QJsonArray& theirs, double rel) {
    if (ours.size() != std::size_t(theirs.size()))
        return QString("%1 values, cfgrib %2").arg(ours.size()).arg(theirs.size());
    for (qsizetype i = 0; i < theirs.size(); ++i) {
        const double o = ours[std::size_t(i)];
        if (theirs[i].isNull() ? !std::isnan(o) : (std::isnan(o) || !close(o, theirs[i].toDouble(), rel)))
            return QString("value %1: %2, cfgrib %3")
                .arg(i)
                .arg(o, 0, 'g', 10)
                .arg(theirs[i].toDouble(), 0, 'g', 10);
    }
    return {};
}

} // namespace

class TestGribOracle : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (!io::gribSupported()) QSKIP("built without ecCodes");
    }

    void matchesCfgrib_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("refused"); // whether cfgrib.open_dataset refuses the file
        for (const char* f :
             {"pressure_levels.grib2", "single_levels.grib2", "gaussian.grib1", "rotated_ll.grib2",
              "polar_stereographic.grib2", "lambert.grib2", "unsupported_grid.grib2", "reduced_gg.grib2",
              "octahedral.grib1", "packings.grib2", "hgt_from_netcdf.grib2"})
            QTest::newRow(f) << QString(f) << false;
        QTest::newRow("mixed.grib2") << QString("mixed.grib2") << true;
        // Real files: ECMWF's, from cfgrib's own test data (tests/data/grib/real/README.md).
        for (const char* f :
             {"regular_ll_sfc.grib", "scanning_mode_64.grib", "fields_with_missing_values.grib",
              "era5-single-level-scalar-time.grib", "reduced_gg.grib", "lambert_grid.grib"})
            QTest::newRow(f) << QString("real/") + f << false;
        for (const char* f : {"t_on_different_level_types.grib", "hpa_and_pa.grib"})
            QTest::newRow(f) << QString("real/") + f << true;
    }

    void matchesCfgrib() {
        QFETCH(QString, file);
        QFETCH(bool, refused);
        const QString path = QString(STRATA_TEST_DATA) + "/grib/" + file;
        QString why;
        const QJsonObject theirs = cfgribView(path, why);
        if (theirs.isEmpty() && why.contains("No module named"))
            QSKIP(qPrintable("cfgrib is not unpacked (run scripts/setup.sh): " + why));
        QVERIFY2(!theirs.isEmpty(), qPrintable("grib_oracle.py failed: " + why));
        QCOMPARE(!theirs["open_dataset_refused"].toString().isEmpty(), refused);

        OpenNotes notes;
        const Dataset ours = openDataset(path.toStdString(), notes);
        if (refused) QVERIFY(ours.groups.size() > 1);
        int matched = 0, values = 0;
        for (const QJsonValue dv : theirs["datasets"].toArray()) {
            const QJsonObject d = dv.toObject();
            const QJsonObject vars = d["vars"].toObject(), coords = d["coords"].toObject();
            for (auto it = vars.begin(); it != vars.end(); ++it) {
                const QJsonObject v = it.value().toObject(), attrs = v["attrs"].toObject();
                const std::string name = it.key().toStdString();
                const QString at = file + ": " + it.key();
                if (attrs["GRIB_gridType"].toString() == "sh") { // a grid Strata does not read
                    QVERIFY2(!groupHolding(ours, name, "surface", "instant"),
                             qPrintable(at + " should be skipped"));
                    continue;
                }
                const Dataset* g =
                    groupHolding(ours, name, attrs["GRIB_typeOfLevel"].toString().toStdString(),
                                 attrs["GRIB_stepType"].toString().toStdString());
                QVERIFY2(g, qPrintable(at + " is not in any group of ours"));
                const Variable& var = *g->findVariable(name);
                QCOMPARE(var.dims(), strings(v["dims"].toArray()));
                for (auto a = attrs.begin(); a != attrs.end(); ++a) {
                    const QString diff = attrDiffers(var.attrs(), a.key(), a.value());
                    QVERIFY2(diff.isEmpty(), qPrintable(at + ": " + diff));
                }
                for (auto c = coords.begin(); c != coords.end(); ++c) {
                    const QJsonObject co = c.value().toObject();
                    const Coordinate* mine = g->coords.find(c.key().toStdString());
                    QVERIFY2(mine, qPrintable(at + ": coordinate " + c.key() + " is missing"));
                    QCOMPARE(mine->dims, strings(co["dims"].toArray()));
                    const QString diff = valuesDiffer(mine->values, co["values"].toArray(), 1e-12);
                    QVERIFY2(diff.isEmpty(), qPrintable(at + ": coordinate " + c.key() + ": " + diff));
                    const QJsonObject ca = co["attrs"].toObject();
                    for (auto a = ca.begin(); a != ca.end(); ++a) {
                        const QString d2 = attrDiffers(mine->attrs, a.key(), a.value());
                        QVERIFY2(d2.isEmpty(), qPrintable(at + ": coordinate " + c.key() + ": " + d2));
                    }
                }
                const QJsonObject ga = d["attrs"].toObject();
                for (auto a = ga.begin(); a != ga.end(); ++a) {
                    const QString diff = attrDiffers(g->attrs, a.key(), a.value());
                    QVERIFY2(diff.isEmpty(), qPrintable(at + ": global " + diff));
                }
                const std::vector<double> mineValues = (*g)[name].asHost().values<double>();
                const QString diff = valuesDiffer(mineValues, v["values"].toArray(), 1e-7);
                QVERIFY2(diff.isEmpty(), qPrintable(at + ": " + diff));
                values += int(mineValues.size());
                ++matched;
            }
        }
        QVERIFY(values > 0);
        QCOMPARE(countVariables(ours), matched); // and none of ours that cfgrib lacks
    }
};

QTEST_APPLESS_MAIN(TestGribOracle)
#include "tst_grib_oracle.moc"
