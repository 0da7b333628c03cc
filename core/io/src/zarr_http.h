#pragma once
// A Zarr store served over HTTP(S), read through libcurl: keys are GETs of <url>/<key>, made in
// parallel by the reader's threads over reused connections; 404 means the key is absent (a
// chunk reads as the fill value); connection failures, time-outs, 429 and 5xx answers are
// retried with growing pauses. A token in STRATA_HTTP_TOKEN is sent as "Authorization:
// Bearer ..." and never appears in a message. The store cannot be listed: its groups and arrays
// come from consolidated metadata.
#include <memory>
#include <string>

#include "zarr_store.h"

namespace strata::io::detail {

// True for "http://..." and "https://...".
bool isHttpUrl(const std::string& path);

// Throws NetcdfError when libcurl cannot be set up. Nothing is fetched here.
std::shared_ptr<const ZarrStore> openHttpStore(const std::string& url);

} // namespace strata::io::detail
