#include "view_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <cctype>
#include <cmath>

#include "strata/core/error.h"

namespace strata::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

[[noreturn]] void bad(const QString& what) { throw ValueError("not a Strata view: " + what.toStdString()); }

// An alias other datasets are read by (b.tas): a name, and not "a" (the view's own file).
bool isAlias(const std::string& s) {
    if (s.empty() || s == "a" || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
        return false;
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string textField(const QJsonObject& o, const char* key, bool required) {
    const QJsonValue v = o.value(key);
    if (v.isUndefined() && !required) return {};
    if (!v.isString()) bad(QString("\"%1\" must be text").arg(key));
    return v.toString().toStdString();
}

double numberField(const QJsonObject& o, const char* key, const QString& where) {
    const QJsonValue v = o.value(key);
    if (!v.isDouble()) bad(QString("\"%1\" of \"%2\" must be a number").arg(key, where));
    return v.toDouble();
}

QJsonArray toJson(Rgba8 c) { return QJsonArray{c.r, c.g, c.b, c.a}; }

Rgba8 colourFromJson(const QJsonValue& v, const char* key) {
    const QString rule = QString("\"%1\" must be [r, g, b, a], each an integer 0 to 255").arg(key);
    const QJsonArray a = v.toArray();
    if (!v.isArray() || a.size() != 4) bad(rule);
    std::uint8_t c[4];
    for (int i = 0; i < 4; ++i) {
        const double x = a[i].toDouble(-1); // -1 for what is not a number
        if (!(x >= 0 && x <= 255 && x == std::floor(x))) bad(rule);
        c[i] = static_cast<std::uint8_t>(x);
    }
    return {c[0], c[1], c[2], c[3]};
}

QJsonObject toJson(const ViewWindow& w) { return {{"x0", w.x0}, {"x1", w.x1}, {"y0", w.y0}, {"y1", w.y1}}; }

ViewWindow windowFromJson(const QJsonValue& v) {
    if (!v.isObject()) bad("\"window\" must be an object {x0, x1, y0, y1}");
    const QJsonObject o = v.toObject();
    const ViewWindow w{numberField(o, "x0", "window"), numberField(o, "x1", "window"),
                       numberField(o, "y0", "window"), numberField(o, "y1", "window")};
    if (!(w.x0 < w.x1 && w.y0 < w.y1)) bad("\"window\" must have x0 < x1 and y0 < y1");
    return w;
}

} // namespace

QJsonObject toJson(const ViewSpec& spec) {
    QJsonObject o;
    o["file"] = q(spec.file);
    if (!spec.files.empty()) {
        QJsonArray files;
        for (const auto& f : spec.files) files.append(q(f));
        o["files"] = files;
    }
    o["variable"] = q(spec.variable);
    if (!spec.gridFile.empty()) o["gridFile"] = q(spec.gridFile);
    if (!spec.derived.empty()) {
        QJsonArray derived;
        for (const auto& d : spec.derived) derived.append(q(d));
        o["derived"] = derived;
    }
    if (!spec.with.empty()) { // {"b": ["run2.nc"], ...}
        QJsonObject with;
        for (const auto& other : spec.with) {
            QJsonArray paths;
            for (const auto& p : other.paths) paths.append(q(p));
            with[q(other.alias)] = paths;
        }
        o["with"] = with;
    }
    o["x"] = q(spec.xDim);
    o["y"] = q(spec.yDim);
    QJsonObject indices;
    for (const auto& [d, i] : spec.indices) indices[q(d)] = static_cast<qint64>(i);
    o["indices"] = indices;
    QJsonArray reductions;
    for (const auto& [d, op] : spec.reductions) reductions.append(QJsonArray{q(d), q(std::string(name(op)))});
    o["reductions"] = reductions;
    o["areaWeighted"] = spec.areaWeighted;
    const QJsonObject colours = toJson(spec.colouring);
    for (auto it = colours.begin(); it != colours.end(); ++it) o[it.key()] = it.value();
    if (spec.window) o["window"] = toJson(*spec.window);
    if (!spec.projection.empty()) o["projection"] = q(spec.projection);
    if (!spec.units.empty()) o["units"] = q(spec.units);
    if (spec.contours) { // as --contours spells them
        o["contours"] = q(toString(*spec.contours));
        o["contourLabels"] = spec.contourLabels;
        o["contourDashes"] = spec.contourDashes;
        o["contourColour"] = toJson(spec.contourColour);
        o["contourWidth"] = spec.contourWidth;
    }
    if (spec.filledContours) o["filledContours"] = true;
    if (spec.fillLevels) o["fillLevels"] = q(toString(*spec.fillLevels));
    if (!spec.contourVariable.empty()) o["contourVar"] = q(spec.contourVariable);
    if (spec.vectors != VectorStyle::None) { // as --vectors and --uv spell them
        o["vectors"] = q(toString(spec.vectors));
        if (!spec.vectorU.empty()) o["uv"] = q(spec.vectorU + "," + spec.vectorV);
    }
    return o;
}

QJsonObject toJson(const Colouring& c) {
    QJsonObject o;
    o["colormap"] = q(c.colormap);
    o["reversed"] = c.reversed;
    o["range"] = QJsonObject{
        {"mode", q(std::string(name(c.range.mode)))}, {"min", c.range.fixedMin}, {"max", c.range.fixedMax}};
    o["nanColour"] = toJson(c.nanColour);
    if (c.underColour) o["underColour"] = toJson(*c.underColour);
    if (c.overColour) o["overColour"] = toJson(*c.overColour);
    return o;
}

Colouring colouringFromJson(const QJsonObject& o) {
    // Each field is optional: a view saved before it was has the default.
    Colouring c;
    if (o.contains("colormap")) c.colormap = textField(o, "colormap", true);
    if (o.contains("reversed")) {
        if (!o.value("reversed").isBool()) bad("\"reversed\" must be true or false");
        c.reversed = o.value("reversed").toBool();
    }
    if (o.contains("range")) {
        const QJsonObject r = o.value("range").toObject();
        try {
            c.range.mode = parseRangeMode(textField(r, "mode", true));
        } catch (const ValueError& e) {
            bad(QString::fromStdString(e.what()));
        }
        c.range.fixedMin = r.value("min").toDouble(0);
        c.range.fixedMax = r.value("max").toDouble(1);
    }
    if (o.contains("nanColour")) c.nanColour = colourFromJson(o.value("nanColour"), "nanColour");
    if (o.contains("underColour")) c.underColour = colourFromJson(o.value("underColour"), "underColour");
    if (o.contains("overColour")) c.overColour = colourFromJson(o.value("overColour"), "overColour");
    return c;
}

ViewSpec viewFromJson(const QJsonObject& o) {
    ViewSpec spec;
    spec.file = textField(o, "file", false);
    spec.gridFile = textField(o, "gridFile", false);
    if (const QJsonValue files = o.value("files"); !files.isUndefined()) {
        if (!files.isArray()) bad("\"files\" must be an array of paths");
        for (const QJsonValue& f : files.toArray()) {
            if (!f.isString()) bad("\"files\" must be an array of paths");
            spec.files.push_back(f.toString().toStdString());
        }
    }
    spec.variable = textField(o, "variable", true);
    spec.xDim = textField(o, "x", true);
    spec.yDim = textField(o, "y", false);
    const QJsonValue indices = o.value("indices");
    if (!indices.isUndefined()) {
        if (!indices.isObject()) bad("\"indices\" must be an object of dim: index");
        const QJsonObject io = indices.toObject();
        for (auto it = io.begin(); it != io.end(); ++it) {
            if (!it.value().isDouble()) bad("index of \"" + it.key() + "\" must be a number");
            spec.indices.push_back(
                {it.key().toStdString(), static_cast<std::int64_t>(it.value().toDouble())});
        }
    }
    const QJsonValue reductions = o.value("reductions");
    if (!reductions.isUndefined()) {
        if (!reductions.isArray()) bad("\"reductions\" must be a list of [dim, op]");
        for (const QJsonValue& r : reductions.toArray()) {
            const QJsonArray pair = r.toArray();
            if (pair.size() != 2 || !pair[0].isString() || !pair[1].isString())
                bad("\"reductions\" must be a list of [dim, op]");
            try {
                spec.reductions.push_back(
                    {pair[0].toString().toStdString(), parseReduceOp(pair[1].toString().toStdString())});
            } catch (const ValueError& e) {
                bad(QString::fromStdString(e.what()));
            }
        }
    }
    if (o.contains("areaWeighted")) {
        if (!o.value("areaWeighted").isBool()) bad("\"areaWeighted\" must be true or false");
        spec.areaWeighted = o.value("areaWeighted").toBool();
    }
    // Each colour field and the window are optional: a view saved before they were has the
    // defaults (viridis, per frame, grey NaN, the whole frame).
    spec.colouring = colouringFromJson(o);
    if (o.contains("window") && !o.value("window").isNull()) spec.window = windowFromJson(o.value("window"));
    spec.projection = textField(o, "projection", false);
    spec.units = textField(o, "units", false); // optional: the variable's own units without it
    if (const std::string levels = textField(o, "contours", false); !levels.empty()) { // optional
        try {
            spec.contours = parseContourSpec(levels);
        } catch (const ValueError& e) {
            bad(QString("\"contours\": ") + e.what());
        }
        for (const auto& [field, value] : {std::pair{"contourLabels", &spec.contourLabels},
                                           std::pair{"contourDashes", &spec.contourDashes}}) {
            if (!o.contains(field)) continue;
            if (!o.value(field).isBool()) bad(QString("\"") + field + "\" must be true or false");
            *value = o.value(field).toBool();
        }
        if (o.contains("contourColour"))
            spec.contourColour = colourFromJson(o.value("contourColour"), "contourColour");
        if (o.contains("contourWidth")) {
            const double w = o.value("contourWidth").toDouble(-1);
            if (!(w >= 0.5 && w <= 8)) bad("\"contourWidth\" must be a number of pixels from 0.5 to 8");
            spec.contourWidth = w;
        }
    }
    if (const std::string levels = textField(o, "fillLevels", false); !levels.empty()) { // optional
        try {
            spec.fillLevels = parseContourSpec(levels);
        } catch (const ValueError& e) {
            bad(QString("\"fillLevels\": ") + e.what());
        }
    }
    spec.contourVariable = textField(o, "contourVar", false); // optional
    if (o.contains("filledContours")) {                       // optional
        if (!o.value("filledContours").isBool()) bad("\"filledContours\" must be true or false");
        spec.filledContours = o.value("filledContours").toBool();
    }
    if (const std::string style = textField(o, "vectors", false); !style.empty()) { // optional
        try {
            spec.vectors = parseVectorStyle(style);
        } catch (const ValueError& e) {
            bad(QString("\"vectors\": ") + e.what());
        }
        if (const std::string uv = textField(o, "uv", false); !uv.empty()) {
            const auto comma = uv.find(',');
            if (comma == std::string::npos || comma == 0 || comma + 1 == uv.size())
                bad("\"uv\" must be two variables \"U,V\"");
            spec.vectorU = uv.substr(0, comma);
            spec.vectorV = uv.substr(comma + 1);
        }
    }
    if (o.contains("derived")) { // optional: views saved before derived variables have none
        if (!o.value("derived").isArray()) bad("'derived' must be a list of statements");
        for (const QJsonValue& d : o.value("derived").toArray()) {
            if (!d.isString()) bad("'derived' must be a list of statements");
            spec.derived.push_back(d.toString().toStdString());
        }
    }
    if (o.contains("with")) { // optional: the other datasets derived variables read by alias
        if (!o.value("with").isObject()) bad("'with' must map aliases to lists of paths");
        const QJsonObject with = o.value("with").toObject();
        for (auto it = with.begin(); it != with.end(); ++it) {
            ViewSpec::Other other{it.key().toStdString(), {}};
            if (!isAlias(other.alias))
                bad("'with': '" + it.key() +
                    "' is not an alias (a name such as b; a is the view's own file)");
            if (!it.value().isArray() || it.value().toArray().isEmpty())
                bad("'with': '" + it.key() + "' must be a list of paths");
            for (const QJsonValue& p : it.value().toArray()) {
                if (!p.isString() || p.toString().isEmpty())
                    bad("'with': '" + it.key() + "' must be a list of paths");
                other.paths.push_back(p.toString().toStdString());
            }
            spec.with.push_back(std::move(other));
        }
    }
    return spec;
}

QByteArray toJsonText(const ViewSpec& spec) {
    return QJsonDocument(toJson(spec)).toJson(QJsonDocument::Indented);
}

ViewSpec viewFromJsonText(const QByteArray& text) {
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    if (doc.isNull()) bad(error.errorString() + " at offset " + QString::number(error.offset));
    if (!doc.isObject()) bad("the document must be an object");
    return viewFromJson(doc.object());
}

} // namespace strata::app
