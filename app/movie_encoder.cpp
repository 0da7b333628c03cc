// The movie module, libstrata_movie.so: MovieWriter's encoders through Debian's FFmpeg
// libraries, loaded at the first movie (movie_writer.cpp), so that the strata executable
// neither loads FFmpeg's fifty-odd libraries at every start nor holds their pages.
#include "movie_writer.h"

#include <QBuffer>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "strata/core/atomic_file.h"
#include "strata/core/error.h"

namespace strata::app {
namespace {

std::string averror(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof text);
    return text;
}

struct Names {
    const char* muxer;
    const char* encoder;
};
Names namesOf(MovieFormat f) {
    switch (f) {
    case MovieFormat::Mp4:
        return {"mp4", "libx264"};
    case MovieFormat::WebM:
        return {"webm", "libvpx-vp9"};
    case MovieFormat::Gif:
        return {"gif", "gif"};
    }
    return {"", ""};
}

// `image` as 32-bit ARGB of `size`, an odd last column or row repeated into the even size.
QImage padded(const QImage& image, QSize size) {
    QImage in = image.convertToFormat(QImage::Format_ARGB32);
    if (in.size() == size) return in;
    QImage out(size, QImage::Format_ARGB32);
    for (int y = 0; y < size.height(); ++y) {
        const auto* src = reinterpret_cast<const QRgb*>(in.constScanLine(std::min(y, in.height() - 1)));
        auto* dst = reinterpret_cast<QRgb*>(out.scanLine(y));
        for (int x = 0; x < size.width(); ++x) dst[x] = src[std::min(x, in.width() - 1)];
    }
    return out;
}

// What libavcodec logged while a probe ran (its own messages name why an encoder cannot open).
std::mutex probeMutex;
std::string* probeLog = nullptr;
void captureLog(void*, int level, const char* format, va_list args) {
    if (level > AV_LOG_ERROR || !probeLog) return;
    char line[512];
    std::vsnprintf(line, sizeof line, format, args);
    std::string text = line;
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    if (!text.empty()) *probeLog += (probeLog->empty() ? "" : "; ") + text;
}

// Whether NVIDIA's encoder (h264_nvenc: an NVIDIA card with an encoder, and the driver's encode
// library) opens for this size and rate: empty when it does, else why not.
std::string nvencProblem(QSize size, AVRational rate) {
    const AVCodec* nvenc = avcodec_find_encoder_by_name("h264_nvenc");
    if (!nvenc) return "this libavcodec has no h264_nvenc";
    AVCodecContext* ctx = avcodec_alloc_context3(nvenc);
    if (!ctx) return "no memory for it";
    ctx->width = size.width();
    ctx->height = size.height();
    ctx->time_base = av_inv_q(rate);
    ctx->framerate = rate;
    ctx->pix_fmt = AV_PIX_FMT_YUV420P;
    std::string log;
    int rc = 0;
    {
        const std::lock_guard lock(probeMutex);
        probeLog = &log;
        av_log_set_callback(captureLog);
        rc = avcodec_open2(ctx, nvenc, nullptr);
        av_log_set_callback(av_log_default_callback);
        probeLog = nullptr;
    }
    avcodec_free_context(&ctx);
    if (rc >= 0) return {};
    return log.empty() ? averror(rc) : log;
}

} // namespace

struct Impl {
    MovieFormat format;
    AtomicFile file;
    QSize size, encoded;
    const AVCodec* codec = nullptr;
    AVFormatContext* muxer = nullptr;
    AVCodecContext* encoder = nullptr;
    AVStream* stream = nullptr;
    AVFrame* frame = nullptr;
    AVPacket* packet = nullptr;
    SwsContext* scaler = nullptr;
    std::unordered_map<QRgb, std::uint64_t> histogram;
    std::optional<MoviePalette> palette;
    std::vector<QByteArray> waiting; // a GIF's frames as PNG until the palette is made
    int frames = 0;
    bool finished = false;
    std::string note; // why the encoder is not the first choice

    // The frames are converted and encoded on a thread of their own while the next is drawn:
    // add() waits only when kQueued frames wait already. An error there (a full disk) is
    // thrown by the next add() or finish().
    static constexpr std::size_t kQueued = 3;
    std::thread worker;
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<QImage> queue;
    bool closing = false, stopping = false;
    std::exception_ptr error;

    Impl(const std::string& path, MovieFormat f, QSize s, const std::vector<std::string>& inputs)
        : format(f), file(path, inputs), size(s) {}
    ~Impl() {
        stop(true);
        sws_freeContext(scaler);
        av_packet_free(&packet);
        av_frame_free(&frame);
        avcodec_free_context(&encoder);
        if (muxer) {
            if (muxer->pb) avio_closep(&muxer->pb);
            avformat_free_context(muxer);
        }
    }

    [[noreturn]] void fail(const std::string& what, int code) const {
        STRATA_FAIL(IoError, "--export-movie " + file.target() + ": " + what + " (" + averror(code) + ")");
    }

    // Sends `f` (null: the end) and writes what the encoder gives back.
    void encode(AVFrame* f) {
        if (const int rc = avcodec_send_frame(encoder, f); rc < 0) fail("the encoder refused a frame", rc);
        for (;;) {
            const int rc = avcodec_receive_packet(encoder, packet);
            if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return;
            if (rc < 0) fail("the encoder failed", rc);
            av_packet_rescale_ts(packet, encoder->time_base, stream->time_base);
            packet->stream_index = stream->index;
            if (const int w = av_interleaved_write_frame(muxer, packet); w < 0) fail("cannot write", w);
        }
    }

    // A GIF's frame before its palette: its colours counted, itself kept as PNG (about a tenth
    // of its pixels' bytes) until finish().
    void keep(const QImage& image) {
        const QImage in = padded(image, encoded);
        QRgb last = 0;
        std::uint64_t* count = nullptr;
        for (int y = 0; y < in.height(); ++y) {
            const auto* row = reinterpret_cast<const QRgb*>(in.constScanLine(y));
            for (int x = 0; x < in.width(); ++x) {
                const QRgb c = row[x] | 0xff000000u;
                if (!count || c != last) { // runs of one colour: one lookup
                    count = &histogram[c];
                    last = c;
                }
                ++*count;
            }
        }
        QBuffer png(&waiting.emplace_back());
        png.open(QIODevice::WriteOnly);
        STRATA_EXPECTS(in.save(&png, "PNG", 80), OutOfMemoryError,
                       "--export-movie " + file.target() + ": no memory to keep frame " +
                           std::to_string(waiting.size()) + " until the palette is made");
    }

    // One frame into the encoder's pixels (the palette's indices for a GIF), encoded.
    void write(const QImage& image) {
        const QImage in = padded(image, encoded);
        if (const int rc = av_frame_make_writable(frame); rc < 0) fail("no writable frame", rc);
        if (format == MovieFormat::Gif) {
            auto* pal = reinterpret_cast<std::uint32_t*>(frame->data[1]);
            for (std::size_t i = 0; i < 256; ++i)
                pal[i] = i < palette->colours().size() ? (palette->colours()[i] | 0xff000000u) : 0xff000000u;
            for (int y = 0; y < in.height(); ++y) {
                const auto* row = reinterpret_cast<const QRgb*>(in.constScanLine(y));
                std::uint8_t* out = frame->data[0] + std::ptrdiff_t(y) * frame->linesize[0];
                QRgb last = row[0];
                std::uint8_t index = palette->indexOf(last);
                for (int x = 0; x < in.width(); ++x) {
                    if (row[x] != last) { // runs of one colour: one lookup
                        last = row[x];
                        index = palette->indexOf(last);
                    }
                    out[x] = index;
                }
            }
        } else {
            const std::uint8_t* src[1] = {in.constBits()};
            const int stride[1] = {int(in.bytesPerLine())};
            sws_scale(scaler, src, stride, 0, in.height(), frame->data, frame->linesize);
        }
        frame->pts = frames++;
        encode(frame);
    }

    void run() {
        for (;;) {
            QImage next;
            {
                std::unique_lock lock(mutex);
                changed.wait(lock, [&] { return stopping || closing || !queue.empty(); });
                if (stopping || (queue.empty() && closing)) return;
                next = std::move(queue.front());
                queue.pop_front();
            }
            changed.notify_all();
            try {
                if (format == MovieFormat::Gif)
                    keep(next);
                else
                    write(next);
            } catch (...) {
                const std::lock_guard lock(mutex);
                error = std::current_exception();
                stopping = true; // what waits is dropped: the movie has failed
                queue.clear();
                changed.notify_all();
                return;
            }
        }
    }

    // Hands `image` to the worker (started on the first frame), waiting for room.
    void push(QImage image) {
        if (!worker.joinable()) worker = std::thread([this] { run(); });
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return error || queue.size() < kQueued; });
        if (error) std::rethrow_exception(error);
        queue.push_back(std::move(image));
        changed.notify_all();
    }

    // The worker ended: after every frame is written (drop: at once, the frames waiting
    // dropped). Throws what failed there unless dropping.
    void stop(bool drop) {
        {
            const std::lock_guard lock(mutex);
            (drop ? stopping : closing) = true;
        }
        changed.notify_all();
        if (worker.joinable()) worker.join();
        if (!drop && error) std::rethrow_exception(error);
    }
};

class Encoder final : public detail::MovieEncoder {
public:
    Encoder(const std::string& path, MovieFormat format, QSize size, double fps,
            const std::vector<std::string>& inputs);
    void add(const QImage& image) override;
    void finish() override;
    std::string encoderName() const override { return impl_->codec->name; }
    std::string encoderNote() const override { return impl_->note; }
    QSize encodedSize() const override { return impl_->encoded; }
    int framesWritten() const override { return impl_->frames; }

private:
    std::unique_ptr<Impl> impl_;
};

Encoder::Encoder(const std::string& path, MovieFormat format, QSize size, double fps,
                 const std::vector<std::string>& inputs) {
    av_log_set_level(AV_LOG_ERROR); // the encoders' banners are not the user's business
    impl_ = std::make_unique<Impl>(path, format, size, inputs);
    Impl& m = *impl_;
    const Names names = namesOf(m.format);
    m.encoded =
        m.format == MovieFormat::Gif ? size : QSize((size.width() + 1) / 2 * 2, (size.height() + 1) / 2 * 2);
    const AVRational rate = av_d2q(fps, 100000);
    if (m.format == MovieFormat::Mp4) { // NVIDIA's encoder where it opens, else libx264
        if (const std::string why = nvencProblem(m.encoded, rate); why.empty())
            m.codec = avcodec_find_encoder_by_name("h264_nvenc");
        else
            m.note = "h264_nvenc not used: " + why;
    }
    if (!m.codec) m.codec = avcodec_find_encoder_by_name(names.encoder);
    STRATA_EXPECTS(m.codec, Error,
                   "--export-movie " + path + ": this libavcodec has no " + names.encoder + " encoder");
    if (const int rc =
            avformat_alloc_output_context2(&m.muxer, nullptr, names.muxer, m.file.tempPath().c_str());
        rc < 0)
        m.fail("no muxer", rc);
    m.stream = avformat_new_stream(m.muxer, nullptr);
    m.encoder = avcodec_alloc_context3(m.codec);
    m.frame = av_frame_alloc();
    m.packet = av_packet_alloc();
    STRATA_EXPECTS(m.stream && m.encoder && m.frame && m.packet, OutOfMemoryError,
                   "--export-movie " + path + ": no memory for the encoder");
    m.encoder->width = m.encoded.width();
    m.encoder->height = m.encoded.height();
    m.encoder->time_base = av_inv_q(rate);
    m.encoder->framerate = rate;
    m.encoder->pix_fmt = m.format == MovieFormat::Gif ? AV_PIX_FMT_PAL8 : AV_PIX_FMT_YUV420P;
    if (m.format != MovieFormat::Gif) { // BT.601 limited range: what swscale writes
        m.encoder->colorspace = AVCOL_SPC_SMPTE170M;
        m.encoder->color_range = AVCOL_RANGE_MPEG;
        m.encoder->gop_size = std::max(1, int(std::lround(fps * 2))); // a key frame every 2 s: seeking
    }
    if (m.format == MovieFormat::Mp4 && std::string(m.codec->name) == "h264_nvenc") {
        av_opt_set(m.encoder->priv_data, "preset", "p5", 0);
        av_opt_set(m.encoder->priv_data, "rc", "vbr", 0);
        av_opt_set(m.encoder->priv_data, "cq", "19", 0);
        m.encoder->bit_rate = 0;
    } else if (m.format == MovieFormat::Mp4) {
        av_opt_set(m.encoder->priv_data, "preset", "veryfast", 0); // the frames come no faster
        av_opt_set(m.encoder->priv_data, "crf", "18", 0);          // colour maps and text: little loss
    } else if (m.format == MovieFormat::WebM) {
        m.encoder->bit_rate = 0; // constant quality
        av_opt_set(m.encoder->priv_data, "crf", "24", 0);
        av_opt_set(m.encoder->priv_data, "deadline", "good", 0);
        av_opt_set(m.encoder->priv_data, "cpu-used", "4", 0);
        av_opt_set(m.encoder->priv_data, "row-mt", "1", 0);
    }
    if (m.muxer->oformat->flags & AVFMT_GLOBALHEADER) m.encoder->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (const int rc = avcodec_open2(m.encoder, m.codec, nullptr); rc < 0)
        m.fail(std::string("cannot open the ") + names.encoder + " encoder", rc);
    if (const int rc = avcodec_parameters_from_context(m.stream->codecpar, m.encoder); rc < 0)
        m.fail("no stream parameters", rc);
    m.stream->time_base = m.encoder->time_base;
    m.stream->avg_frame_rate = rate;
    m.frame->format = m.encoder->pix_fmt;
    m.frame->width = m.encoded.width();
    m.frame->height = m.encoded.height();
    if (const int rc = av_frame_get_buffer(m.frame, 0); rc < 0) m.fail("no frame buffer", rc);
    if (const int rc = avio_open(&m.muxer->pb, m.file.tempPath().c_str(), AVIO_FLAG_WRITE); rc < 0)
        m.fail("cannot create " + m.file.tempPath(), rc);
    AVDictionary* options = nullptr;
    if (m.format == MovieFormat::Mp4) av_dict_set(&options, "movflags", "+faststart", 0); // playable at once
    const int rc = avformat_write_header(m.muxer, &options);
    av_dict_free(&options);
    if (rc < 0) m.fail("cannot write the header", rc);
    if (m.format != MovieFormat::Gif) {
        m.scaler = sws_getContext(m.encoded.width(), m.encoded.height(), AV_PIX_FMT_BGRA, m.encoded.width(),
                                  m.encoded.height(), AV_PIX_FMT_YUV420P, SWS_BICUBIC | SWS_ACCURATE_RND,
                                  nullptr, nullptr, nullptr);
        STRATA_EXPECTS(m.scaler, Error, "--export-movie " + path + ": no colour conversion to yuv420p");
    }
}

void Encoder::add(const QImage& image) {
    Impl& m = *impl_;
    STRATA_EXPECTS(!m.finished, ValueError, "--export-movie " + m.file.target() + ": a frame after the end");
    m.push(image);
}

void Encoder::finish() {
    Impl& m = *impl_;
    if (m.finished) return;
    m.stop(false);                      // every frame encoded (or kept), or what failed thrown
    if (m.format == MovieFormat::Gif) { // one palette from every frame's colours, then the frames
        m.palette = MoviePalette::from(m.histogram);
        m.histogram.clear();
        for (QByteArray& png : m.waiting) {
            m.write(QImage::fromData(png, "PNG"));
            png.clear();
        }
        m.waiting.clear();
    }
    m.encode(nullptr);
    if (const int rc = av_write_trailer(m.muxer); rc < 0) m.fail("cannot write the trailer", rc);
    if (const int rc = avio_closep(&m.muxer->pb); rc < 0) m.fail("cannot close the file", rc);
    m.file.commit();
    m.finished = true;
}

} // namespace strata::app

extern "C" __attribute__((visibility("default"))) strata::app::detail::MovieEncoder*
strata_movie_encoder(const std::string& path, strata::app::MovieFormat format, QSize size, double fps,
                     const std::vector<std::string>& inputs) {
    return new strata::app::Encoder(path, format, size, fps, inputs);
}
