#include "view_json.h"

#include <QJsonArray>
#include <QJsonDocument>

#include "strata/core/error.h"

namespace strata::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

[[noreturn]] void bad(const QString& what) { throw ValueError("not a Strata view: " + what.toStdString()); }

std::string textField(const QJsonObject& o, const char* key, bool required) {
    const QJsonValue v = o.value(key);
    if (v.isUndefined() && !required) return {};
    if (!v.isString()) bad(QString("\"%1\" must be text").arg(key));
    return v.toString().toStdString();
}

} // namespace

QJsonObject toJson(const ViewSpec& spec) {
    QJsonObject o;
    o["file"] = q(spec.file);
    o["variable"] = q(spec.variable);
    o["x"] = q(spec.xDim);
    o["y"] = q(spec.yDim);
    QJsonObject indices;
    for (const auto& [d, i] : spec.indices) indices[q(d)] = static_cast<qint64>(i);
    o["indices"] = indices;
    QJsonArray reductions;
    for (const auto& [d, op] : spec.reductions) reductions.append(QJsonArray{q(d), q(std::string(name(op)))});
    o["reductions"] = reductions;
    o["areaWeighted"] = spec.areaWeighted;
    const Colouring& c = spec.colouring;
    o["colormap"] = q(c.colormap);
    o["reversed"] = c.reversed;
    o["range"] = QJsonObject{
        {"mode", q(std::string(name(c.range.mode)))}, {"min", c.range.fixedMin}, {"max", c.range.fixedMax}};
    return o;
}

ViewSpec viewFromJson(const QJsonObject& o) {
    ViewSpec spec;
    spec.file = textField(o, "file", false);
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
    Colouring& c = spec.colouring;
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
