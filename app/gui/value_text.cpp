#include "value_text.h"

#include <QCoreApplication>
#include <cmath>

#include "strata/core/format.h"
#include "strata/core/units.h"

namespace strata::app {

ValueText ValueText::of(const DataArray& var, const DataArray& shown) {
    ValueText t;
    const CfEncoding& enc = var.variable().encoding();
    t.packed = enc.scaled && !isFloating(enc.packed);
    t.scale = enc.scale;
    t.float32 = shown.dtype() == DType::Float32;
    const std::optional<std::string> stored = var.attrs().text("units"), units = shown.attrs().text("units");
    if (units) t.units = QString::fromStdString(*units);
    if (t.packed && stored && units && *stored != *units)
        if (const auto step = rangeInUnits({0, enc.scale}, *stored, *units))
            t.scale = step->second - step->first;
    return t;
}

QString ValueText::number(double v) const {
    if (std::isnan(v)) return QCoreApplication::translate("ValueText", "missing");
    const std::string s = packed    ? formatPacked(v, scale)
                          : float32 ? formatNumber(static_cast<float>(v))
                                    : formatNumber(v);
    return QString::fromStdString(s);
}

QString ValueText::operator()(double v) const {
    const QString n = number(v);
    return std::isnan(v) || units.isEmpty() ? n : n + " " + units;
}

} // namespace strata::app
