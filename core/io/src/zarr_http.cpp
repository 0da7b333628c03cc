#include "zarr_http.h"

#include <curl/curl.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "strata/core/cancel.h"
#include "strata/core/error.h"
#include "strata/core/memory_budget.h"
#include "strata/core/settings.h"
#include "strata/io/zarr.h"

namespace strata::io::detail {
namespace {

constexpr int kAttempts = 5;          // a GET is tried this often before its error is final
constexpr long kConnectTimeoutS = 10; // to open a connection

// The URL without "user:password@", for messages.
std::string withoutCredentials(const std::string& url) {
    const auto scheme = url.find("://");
    if (scheme == std::string::npos) return url;
    const auto hostEnd = url.find('/', scheme + 3);
    const auto at = url.rfind('@', hostEnd == std::string::npos ? url.size() : hostEnd);
    if (at == std::string::npos || at < scheme) return url;
    return url.substr(0, scheme + 3) + url.substr(at + 1);
}

struct CurlGlobal {
    CurlGlobal() { curl_global_init(CURL_GLOBAL_DEFAULT); }
};

struct Transfer {
    std::vector<unsigned char> body;
    std::uint64_t maxBytes = 0;
    bool tooLarge = false;
    std::optional<CancelToken> cancel; // the reading thread's CancelScope
    bool cancelled() const { return cancel && cancel->cancelled(); }
};

std::size_t onData(char* data, std::size_t size, std::size_t n, void* user) {
    auto* t = static_cast<Transfer*>(user);
    const std::size_t bytes = size * n;
    if (t->body.size() + bytes > t->maxBytes) {
        t->tooLarge = true;
        return 0; // stops the transfer
    }
    t->body.insert(t->body.end(), data, data + bytes);
    return bytes;
}

int onProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    return static_cast<Transfer*>(user)->cancelled() ? 1 : 0;
}

class HttpStore final : public ZarrStore {
public:
    explicit HttpStore(std::string url) : url_(std::move(url)) {
        static CurlGlobal global;
        while (!url_.empty() && url_.back() == '/') url_.pop_back();
        name_ = withoutCredentials(url_);
        if (const auto token = settings::httpToken()) auth_ = "Authorization: Bearer " + *token;
        stallS_ = settings::httpTimeoutSeconds(); // below 1 byte/s for this long is a time-out
    }
    ~HttpStore() override {
        for (CURL* h : idle_) curl_easy_cleanup(h);
    }

    std::optional<Bytes> get(const std::string& key, std::uint64_t maxBytes) const override {
        checkKey(name_, key);
        const std::string url = url_ + "/" + key;
        const std::string shown = name_ + "/" + key;
        Transfer t;
        if (const CancelToken* current = CancelScope::current()) t.cancel = *current;
        std::string last;
        for (int attempt = 0; attempt < kAttempts; ++attempt) {
            if (attempt > 0) { // 0.1 s, 0.2 s, 0.4 s, 0.8 s, cut short by a cancel
                const std::chrono::milliseconds pause(100 << (attempt - 1));
                if (t.cancel)
                    t.cancel->waitFor(pause);
                else
                    std::this_thread::sleep_for(pause);
            }
            if (t.cancelled()) STRATA_FAIL(CancelledError, shown + ": the read was cancelled");
            t.body.clear();
            t.maxBytes = maxBytes;
            long status = 0;
            const CURLcode rc = perform(url, t, status);
            if (rc == CURLE_ABORTED_BY_CALLBACK)
                STRATA_FAIL(CancelledError, shown + ": the read was cancelled");
            if (t.tooLarge)
                STRATA_FAIL(NetcdfError, name_ + ": key '" + key + "' holds more than the " +
                                             formatBytes(maxBytes) + " it may hold");
            if (rc == CURLE_OK && status == 200) return std::move(t.body);
            if (rc == CURLE_OK && (status == 404 || status == 410)) return std::nullopt;
            if (rc == CURLE_OK) {
                last = "the server answered HTTP " + std::to_string(status);
                if (status != 429 && status < 500) break; // 401, 403, ...: asking again will not help
            } else {
                last = curl_easy_strerror(rc);
                if (rc == CURLE_URL_MALFORMAT || rc == CURLE_UNSUPPORTED_PROTOCOL ||
                    rc == CURLE_COULDNT_RESOLVE_HOST)
                    break;
            }
        }
        STRATA_FAIL(NetcdfError, shown + ": " + last);
    }

    std::vector<std::string> children(const std::string&) const override { return {}; }
    bool canList() const override { return false; }
    const std::string& name() const override { return name_; }

private:
    CURLcode perform(const std::string& url, Transfer& t, long& status) const {
        CURL* h = take();
        curl_easy_reset(h); // keeps the connection cache
        curl_easy_setopt(h, CURLOPT_URL, url.c_str());
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, onData);
        curl_easy_setopt(h, CURLOPT_WRITEDATA, &t);
        curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, onProgress);
        curl_easy_setopt(h, CURLOPT_XFERINFODATA, &t);
        curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
        curl_easy_setopt(h, CURLOPT_MAXREDIRS, 5L);
        curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, kConnectTimeoutS);
        curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
        curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, stallS_);
        curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(h, CURLOPT_USERAGENT, "strata");
        curl_slist* headers = nullptr;
        if (!auth_.empty()) headers = curl_slist_append(headers, auth_.c_str());
        curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
        const CURLcode rc = curl_easy_perform(h);
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
        curl_easy_setopt(h, CURLOPT_HTTPHEADER, nullptr);
        curl_slist_free_all(headers);
        give(h);
        return rc;
    }

    // Easy handles, each keeping its connections open between GETs.
    CURL* take() const {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!idle_.empty()) {
                CURL* h = idle_.back();
                idle_.pop_back();
                return h;
            }
        }
        CURL* h = curl_easy_init();
        if (!h) STRATA_FAIL(NetcdfError, name_ + ": libcurl could not start a transfer");
        return h;
    }
    void give(CURL* h) const {
        std::lock_guard<std::mutex> lock(mutex_);
        idle_.push_back(h);
    }

    std::string url_, name_, auth_;
    long stallS_ = 0; // seconds; set by the constructor
    mutable std::mutex mutex_;
    mutable std::vector<CURL*> idle_;
};

} // namespace

bool isHttpUrl(const std::string& path) {
    return path.rfind("http://", 0) == 0 || path.rfind("https://", 0) == 0;
}

std::shared_ptr<const ZarrStore> openHttpStore(const std::string& url) {
    return std::make_shared<HttpStore>(url);
}

} // namespace strata::io::detail
