#include "fonts.h"

#include <cmath>
#include <filesystem>
#include <fontconfig/fontconfig.h>
#include <optional>
#include <vtkTextProperty.h>

#include "strata/core/settings.h"

namespace strata::detail {
namespace {

bool isFile(const std::string& p) {
    std::error_code ec;
    return !p.empty() && std::filesystem::is_regular_file(p, ec);
}

// DejaVu Sans's file as fontconfig matches it (FONTCONFIG_FILE and the user's configuration
// apply), or empty when fontconfig offers another family for it or nothing.
std::string fromFontconfig() {
    FcConfig* config = FcInitLoadConfigAndFonts();
    if (!config) return {};
    std::string file;
    FcPattern* want = FcNameParse(reinterpret_cast<const FcChar8*>("DejaVu Sans:style=Book"));
    if (want) {
        FcConfigSubstitute(config, want, FcMatchPattern);
        FcDefaultSubstitute(want);
        FcResult result = FcResultNoMatch;
        if (FcPattern* got = FcFontMatch(config, want, &result)) {
            FcChar8 *family = nullptr, *path = nullptr;
            if (FcPatternGetString(got, FC_FAMILY, 0, &family) == FcResultMatch &&
                FcPatternGetString(got, FC_FILE, 0, &path) == FcResultMatch &&
                std::string(reinterpret_cast<const char*>(family)) == "DejaVu Sans")
                file = reinterpret_cast<const char*>(path);
            FcPatternDestroy(got);
        }
        FcPatternDestroy(want);
    }
    FcConfigDestroy(config);
    return file;
}

} // namespace

std::string findFontFile() {
    if (const std::optional<std::string> named = settings::fontFile())
        return *named; // a file: else warned of
    if (std::string found = fromFontconfig(); isFile(found)) return found;
    for (const char* p :
         {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf",
          "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf", "/usr/share/fonts/dejavu/DejaVuSans.ttf"})
        if (isFile(p)) return std::string(p);
    return std::string();
}

const std::string& renderFontFile() {
    static const std::string path = findFontFile();
    return path;
}

void applyFont(vtkTextProperty* p, double pixels) {
    if (const std::string& f = renderFontFile(); !f.empty()) {
        p->SetFontFamily(VTK_FONT_FILE);
        p->SetFontFile(f.c_str());
    } else {
        p->SetFontFamilyToArial();
    }
    p->BoldOff();
    p->ItalicOff();
    p->SetFontSize(static_cast<int>(std::lround(pixels)));
}

} // namespace strata::detail
