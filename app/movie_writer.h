#pragma once
// A movie file written frame by frame through Debian's libavformat/libavcodec: MP4 (H.264 by
// libx264, yuv420p, moov atom first), WebM (VP9 by libvpx) or GIF (one palette for the whole
// movie), chosen by the path's extension. The encoders live in a module of their own,
// libstrata_movie.so (movie_encoder.cpp), loaded at the first movie. The file is written under a temporary
// name beside it and renamed when finish() returns: a movie cancelled or failed leaves nothing behind.
#include <QImage>
#include <QSize>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace strata::app {

enum class MovieFormat { Mp4, WebM, Gif };

// The format named by `path`'s extension (.mp4, .webm, .gif; any case). Throws ValueError
// naming the path and the three extensions otherwise.
MovieFormat movieFormatOf(const std::string& path);

namespace detail {
// What the movie module makes for a MovieWriter: its encoder, muxer and file.
class MovieEncoder {
public:
    virtual ~MovieEncoder() = default;
    virtual void add(const QImage& frame) = 0;
    virtual void finish() = 0;
    virtual std::string encoderName() const = 0;
    virtual std::string encoderNote() const = 0;
    virtual QSize encodedSize() const = 0;
    virtual int framesWritten() const = 0;
};
} // namespace detail

class MovieWriter {
public:
    // Throws ValueError for a size below 2 × 2 or a rate outside (0, 120] frames/s, Error
    // when the movie module cannot be loaded (saying where it was looked for) or naming the
    // encoder when this libavcodec has none (libx264, libvpx-vp9, gif), and IoError
    // when `path` is one of `protectedFiles` (the dataset's: never overwritten).
    MovieWriter(const std::string& path, QSize size, double fps,
                const std::vector<std::string>& protectedFiles = {});
    ~MovieWriter(); // without finish(): the temporary file is removed
    MovieWriter(const MovieWriter&) = delete;
    MovieWriter& operator=(const MovieWriter&) = delete;

    // One frame of the movie, of the size given (converted to the encoder's pixels; an odd
    // width or height is padded by repeating the last column or row, as yuv420p needs even).
    // Frames are converted and encoded on a thread of the writer's while the caller draws the
    // next; add() waits when three wait already, and throws what failed there (IoError for a
    // full disk). A GIF's frames are counted and kept (as PNG, about a tenth of their bytes)
    // until finish() makes the one palette from all their colours and encodes them.
    void add(const QImage& frame);
    // Encodes what waits, flushes the encoder, writes the trailer and renames the file into
    // place. Throws IoError naming the path when the file cannot be written.
    void finish();

    // "h264_nvenc" (an MP4 where NVIDIA's encoder opens: the frames still come from the host),
    // "libx264", "libvpx-vp9", "gif"; and why NVENC was not used ("h264_nvenc not used: Cannot
    // load libcuda.so.1"; empty for WebM and GIF).
    std::string encoderName() const;
    std::string encoderNote() const;
    QSize encodedSize() const; // the size written: even for MP4 and WebM
    int framesWritten() const;

private:
    std::unique_ptr<detail::MovieEncoder> encoder_;
};

// The one palette of a GIF: made from the colours of every frame with their pixel counts. When
// there are 256 colours or fewer they are the palette, exactly; else a median cut of them,
// weighted by their pixels, gives 256, and a colour maps to the nearest (through a table of
// 6 bits a channel).
class MoviePalette {
public:
    static MoviePalette from(const std::unordered_map<QRgb, std::uint64_t>& histogram);
    const std::vector<QRgb>& colours() const { return colours_; }
    std::uint8_t indexOf(QRgb c) const;

private:
    std::vector<QRgb> colours_;
    std::unordered_map<QRgb, std::uint8_t> exact_; // the palette's own colours
    std::vector<std::uint8_t> nearest_;            // 2^18 entries: 6 bits a channel
};

} // namespace strata::app
