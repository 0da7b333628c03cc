// The colour-map loop, compiled per instruction-set variant; included by reduce_isa_*.cpp.
// t = (v − vmin) / (vmax − vmin) in double, index = clamp(floor(t·n), 0, n−1), NaN →
// nanColour, where set v < vmin → under and v > vmax → over, vmax <= vmin (or a NaN range)
// → entry 0: the CUDA backend's formula. floor is
// not called: after clamping t·n to [0, n−1] (NaN → 0), truncation gives floor's index.
// Both clamps are written as max/min patterns, which the compiler vectorises.

// Indices of one tile of m values (vectorised: subtract, divide, clamp, truncate).
template <class T>
STRATA_INLINE void tileIndices(const T* __restrict v, int m, double lo, double span, double n, double top,
                               std::int32_t* __restrict idx) {
    for (int i = 0; i < m; ++i) {
        const double tn = (static_cast<double>(v[i]) - lo) / span * n;
        const double a = tn > 0.0 ? tn : 0.0; // NaN → 0
        const double c = a < top ? a : top;
        idx[i] = static_cast<std::int32_t>(c);
    }
}

// The tile's colours: LUT entries (gathers where the ISA has them), NaN → nanBits.
template <class T>
STRATA_INLINE void tileColours(const T* __restrict v, const std::int32_t* __restrict idx, int m,
                               const std::uint32_t* __restrict lut, std::uint32_t nanBits,
                               std::uint32_t* __restrict dst) {
    for (int i = 0; i < m; ++i) {
        const std::uint32_t ok = static_cast<std::uint32_t>(okBit(v[i]));
        dst[i] = (lut[idx[i]] & (0u - ok)) | (nanBits & (ok - 1u));
    }
}

// The tile's values beyond [lo, hi] recoloured: below → underBits, above → overBits (NaN is
// neither).
template <class T>
STRATA_INLINE void tileBeyond(const T* __restrict v, int m, double lo, double hi, std::uint32_t underBits,
                              std::uint32_t overBits, std::uint32_t* __restrict dst) {
    for (int i = 0; i < m; ++i) {
        const double x = static_cast<double>(v[i]);
        const std::uint32_t below = 0u - static_cast<std::uint32_t>(x < lo);
        const std::uint32_t above = 0u - static_cast<std::uint32_t>(x > hi);
        dst[i] = (dst[i] & ~(below | above)) | (underBits & below) | (overBits & above);
    }
}

template <class T> void colormapTyped(const ColormapProblem& p) {
    const T* frame = static_cast<const T*>(p.frame.data);
    const std::int64_t h = p.frame.shape[0], w = p.frame.shape[1];
    const std::int64_t sy = p.frame.strides[0], sx = p.frame.strides[1];
    double lo = p.vmin, hi = p.vmax;
    if (p.range) {
        lo = p.range[0];
        hi = p.range[1];
    }
    const bool flat = !(hi > lo);
    const double span = hi - lo, n = p.lutSize, top = p.lutSize - 1;
    std::vector<std::uint32_t> table(static_cast<std::size_t>(p.lutSize));
    std::memcpy(table.data(), p.lut, table.size() * 4);
    const std::uint32_t* lut = table.data();
    std::uint32_t nanBits;
    std::memcpy(&nanBits, &p.nanColour, 4);
    // Unset, under and over are the LUT's ends (what the clamp gives): one pass serves both.
    std::uint32_t underBits = lut[0], overBits = lut[p.lutSize - 1];
    if (p.hasUnder) std::memcpy(&underBits, &p.underColour, 4);
    if (p.hasOver) std::memcpy(&overBits, &p.overColour, 4);
    const bool beyond = (p.hasUnder || p.hasOver) && !flat;
    std::uint32_t* out = reinterpret_cast<std::uint32_t*>(p.out);
    constexpr int kTile = 512;
    parallelFor(h, std::max<std::int64_t>(1, 32768 / std::max<std::int64_t>(1, w)),
                [&](std::int64_t y0, std::int64_t y1) {
                    alignas(64) std::int32_t idx[kTile];
                    alignas(64) T vals[kTile];
                    for (std::int64_t y = y0; y < y1; ++y) {
                        const T* row = frame + y * sy;
                        std::uint32_t* o = out + y * w;
                        for (std::int64_t x0 = 0; x0 < w; x0 += kTile) {
                            const int m = static_cast<int>(std::min<std::int64_t>(kTile, w - x0));
                            const T* __restrict src = row + x0 * sx;
                            const T* __restrict v = src;
                            if (sx != 1) {
                                for (int i = 0; i < m; ++i) vals[i] = src[i * sx];
                                v = vals;
                            }
                            if (flat)
                                for (int i = 0; i < m; ++i) idx[i] = 0;
                            else
                                tileIndices(v, m, lo, span, n, top, idx);
                            tileColours(v, idx, m, lut, nanBits, o + x0);
                            if (beyond) tileBeyond(v, m, lo, hi, underBits, overBits, o + x0);
                        }
                    }
                });
}

void colormapImpl(const ColormapProblem& p) {
    visitNumeric(p.frame.dtype, [&](auto tag) { colormapTyped<decltype(tag)>(p); });
}
