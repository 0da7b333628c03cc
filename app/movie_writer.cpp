#include "movie_writer.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <mutex>

#include "strata/core/error.h"
#include "strata/render/vtk_views.h"

namespace strata::app {
namespace {

using Entry = detail::MovieEncoder* (*)(const std::string&, MovieFormat, QSize, double,
                                        const std::vector<std::string>&);

// The movie module's entry point, loaded at the first movie; throws Error saying where it was
// looked for when it cannot be loaded (later calls throw the same without trying again).
Entry movieModule() {
    static std::once_flag once;
    static Entry entry = nullptr;
    static std::string tried;
    std::call_once(once, [] {
        entry = reinterpret_cast<Entry>(
            loadModuleEntry(modulePlaces(STRATA_MOVIE_NAME, QStringLiteral(STRATA_MOVIE_BUILT)),
                            "strata_movie_encoder", tried));
    });
    STRATA_EXPECTS(entry, Error, "the movie encoders (FFmpeg's) could not be loaded:" + tried);
    return entry;
}

} // namespace

MovieFormat movieFormatOf(const std::string& path) {
    std::string ext =
        path.substr(path.find_last_of('.') == std::string::npos ? path.size() : path.find_last_of('.') + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (ext == "mp4") return MovieFormat::Mp4;
    if (ext == "webm") return MovieFormat::WebM;
    if (ext == "gif") return MovieFormat::Gif;
    STRATA_FAIL(ValueError,
                "--export-movie " + path + ": the name says no movie format (.mp4, .webm or .gif)");
}

MovieWriter::MovieWriter(const std::string& path, QSize size, double fps,
                         const std::vector<std::string>& inputs) {
    const MovieFormat format = movieFormatOf(path);
    STRATA_EXPECTS(size.width() >= 2 && size.height() >= 2, ValueError,
                   "--export-movie " + path + ": a movie of " + std::to_string(size.width()) + " x " +
                       std::to_string(size.height()) + " pixels is too small");
    STRATA_EXPECTS(std::isfinite(fps) && fps > 0 && fps <= 120, ValueError,
                   "--export-movie " + path + ": " + std::to_string(fps) + " frames/s is not in (0, 120]");
    encoder_.reset(movieModule()(path, format, size, fps, inputs));
}

MovieWriter::~MovieWriter() = default;

void MovieWriter::add(const QImage& image) { encoder_->add(image); }
void MovieWriter::finish() { encoder_->finish(); }
std::string MovieWriter::encoderName() const { return encoder_->encoderName(); }
std::string MovieWriter::encoderNote() const { return encoder_->encoderNote(); }
QSize MovieWriter::encodedSize() const { return encoder_->encodedSize(); }
int MovieWriter::framesWritten() const { return encoder_->framesWritten(); }

} // namespace strata::app
