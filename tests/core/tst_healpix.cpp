// HEALPix cells (issue 37): the cell holding a point and a cell's centre, in the ring and the
// nest order, against healpy's (tests/data/healpix_reference.csv, written by Debian's
// python3-healpy 1.16 with make_healpix_reference.py: random points and the hard places, the
// poles, the equator, the caps' edges, lon 0 and just below 360, for nside 1 to 2^13); every
// cell's centre lies in that cell; nest → ring is one-to-one; bad nsides are named.
#include <QtTest/QtTest>

#include <QFile>
#include <cmath>
#include <set>

#include "strata/core/healpix.h"

using namespace strata;
using namespace strata::healpix;

namespace {

QString reference() { return QStringLiteral(STRATA_TEST_DATA "/healpix_reference.csv"); }

// |a - b| in degrees of longitude, across the 0/360 seam.
double lonDifference(double a, double b) {
    const double d = std::fmod(std::fabs(a - b), 360.0);
    return std::min(d, 360.0 - d);
}

} // namespace

class TestHealpix : public QObject {
    Q_OBJECT
private slots:
    void cellsAndCentresAreHealpys() {
        QFile f(reference());
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(reference()));
        int points = 0, centres = 0;
        while (!f.atEnd()) {
            const QString line = QString::fromUtf8(f.readLine()).trimmed();
            if (line.isEmpty() || line.startsWith('#')) continue;
            const QStringList c = line.split(',');
            const std::int64_t nside = c[1].toLongLong();
            if (c[0] == "point") {
                QCOMPARE(c.size(), 6);
                const double lon = c[2].toDouble(), lat = c[3].toDouble();
                const std::int64_t ring = cellOf(nside, Order::Ring, lon, lat);
                const std::int64_t nest = cellOf(nside, Order::Nest, lon, lat);
                QVERIFY2(ring == c[4].toLongLong() && nest == c[5].toLongLong(),
                         qPrintable(QString("nside %1 (%2, %3): ring %4 nest %5, healpy %6 %7")
                                        .arg(nside)
                                        .arg(lon, 0, 'g', 17)
                                        .arg(lat, 0, 'g', 17)
                                        .arg(ring)
                                        .arg(nest)
                                        .arg(c[4], c[5])));
                ++points;
            } else {
                QCOMPARE(c.size(), 7);
                const std::int64_t cell = c[2].toLongLong();
                for (const auto& [order, column] : {std::pair{Order::Ring, 3}, std::pair{Order::Nest, 5}}) {
                    double lon = 0, lat = 0;
                    centreOf(nside, order, cell, lon, lat);
                    const double wantLon = c[column].toDouble(), wantLat = c[column + 1].toDouble();
                    QVERIFY2(lonDifference(lon, wantLon) < 1e-9 && std::fabs(lat - wantLat) < 1e-9,
                             qPrintable(QString("nside %1 %2 cell %3: (%4, %5), healpy (%6, %7)")
                                            .arg(nside)
                                            .arg(order == Order::Ring ? "ring" : "nest")
                                            .arg(cell)
                                            .arg(lon, 0, 'g', 17)
                                            .arg(lat, 0, 'g', 17)
                                            .arg(wantLon, 0, 'g', 17)
                                            .arg(wantLat, 0, 'g', 17)));
                }
                ++centres;
            }
        }
        QVERIFY2(points >= 14 * 130 && centres >= 500, qPrintable(QString("%1 %2").arg(points).arg(centres)));
    }

    // Each cell's centre is in that cell (both orders), and nest → ring numbers every ring cell
    // once: for every cell of nside 1 to 64.
    void everyCentreIsInItsCell() {
        for (std::int64_t nside = 1; nside <= 64; nside *= 2) {
            std::vector<bool> seen(std::size_t(cellCount(nside)), false);
            for (std::int64_t cell = 0; cell < cellCount(nside); ++cell) {
                for (Order order : {Order::Ring, Order::Nest}) {
                    double lon = 0, lat = 0;
                    centreOf(nside, order, cell, lon, lat);
                    const std::int64_t back = cellOf(nside, order, lon, lat);
                    if (back != cell)
                        QFAIL(qPrintable(QString("nside %1 %2 cell %3: its centre (%4, %5) is in %6")
                                             .arg(nside)
                                             .arg(order == Order::Ring ? "ring" : "nest")
                                             .arg(cell)
                                             .arg(lon)
                                             .arg(lat)
                                             .arg(back)));
                }
                const std::int64_t ring = nestToRing(nside, cell);
                QVERIFY(ring >= 0 && ring < cellCount(nside) && !seen[std::size_t(ring)]);
                seen[std::size_t(ring)] = true;
            }
        }
    }

    // Longitudes wrap; latitudes beyond the poles and NaNs have no cell.
    void pointsOutsideTheSphereHaveNoCell() {
        for (Order order : {Order::Ring, Order::Nest}) {
            QCOMPARE(cellOf(64, order, 10.0 + 360.0, 20.0), cellOf(64, order, 10.0, 20.0));
            QCOMPARE(cellOf(64, order, 10.0 - 720.0, -20.0), cellOf(64, order, 10.0, -20.0));
            QCOMPARE(cellOf(64, order, 10.0, 90.5), std::int64_t(-1));
            QCOMPARE(cellOf(64, order, 10.0, std::nan("")), std::int64_t(-1));
            QCOMPARE(cellOf(64, order, std::nan(""), 10.0), std::int64_t(-1));
            QCOMPARE(cellOf(64, order, INFINITY, 10.0), std::int64_t(-1));
        }
    }

    void badNsidesAreNamed() {
        QVERIFY(nsideProblem(1024, Order::Nest).empty());
        QVERIFY(nsideProblem(12, Order::Ring).empty());
        QCOMPARE(QString::fromStdString(nsideProblem(12, Order::Nest)),
                 QString("nside 12 is not a power of two, as the nest order needs"));
        QCOMPARE(QString::fromStdString(nsideProblem(0, Order::Ring)),
                 QString("nside 0 is outside 1 to 2^29"));
        QVERIFY(!nsideProblem(kMaxNside * 2, Order::Ring).empty());
        QCOMPARE(levelOf(8192), 13);
        QCOMPARE(cellCount(8192), std::int64_t(805306368)); // zoom 13: 805 M cells
    }
};

QTEST_GUILESS_MAIN(TestHealpix)
#include "tst_healpix.moc"
