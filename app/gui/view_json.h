#pragma once
// The view as JSON, for View ▸ Save/Load and for the last view of each file.
#include <QByteArray>
#include <QJsonObject>

#include "view_roles.h"

namespace strata::app {

// JSON: {"file", "variable", "x", "y", "indices": {dim: i}, "reductions": [[dim, op]],
// "areaWeighted", "colormap", "reversed", "range": {"mode", "min", "max"}, "nanColour": [r, g, b, a],
// "underColour", "overColour": [r, g, b, a] (only when set), "window": {"x0", "x1", "y0", "y1"},
// "projection", "derived": [statement], "with": {alias: [path]}, "contours": "auto",
// "contourLabels", "contourDashes", "contourColour": [r, g, b, a], "contourWidth", "filledContours",
// "vectors": "barbs", "uv": "ua,va"} — the whole ViewSpec; "window" only when zoomed or panned, "projection"
// only when the frame is on a map, the contours only when drawn. Reading, every field but "variable" and "x"
// may be missing (views saved by older versions).
QJsonObject toJson(const ViewSpec& spec);
// Throws ValueError naming the field for a document that is not a view.
ViewSpec viewFromJson(const QJsonObject& o);
QByteArray toJsonText(const ViewSpec& spec);
ViewSpec viewFromJsonText(const QByteArray& text); // ValueError for text that is not JSON
// The colour fields alone (as in a view), for the colouring remembered per variable.
QJsonObject toJson(const Colouring& colouring);
Colouring colouringFromJson(const QJsonObject& o);

} // namespace strata::app
