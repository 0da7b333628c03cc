#include "fonts.h"

#include <cmath>
#include <filesystem>
#include <vtkTextProperty.h>

namespace strata::detail {
namespace {

const char* fontFile() {
    static const std::string path = [] {
        for (const char* p :
             {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf",
              "/usr/share/fonts/dejavu/DejaVuSans.ttf"}) {
            std::error_code ec;
            if (std::filesystem::exists(p, ec)) return std::string(p);
        }
        return std::string();
    }();
    return path.empty() ? nullptr : path.c_str();
}

} // namespace

void applyFont(vtkTextProperty* p, double pixels) {
    if (const char* f = fontFile()) {
        p->SetFontFamily(VTK_FONT_FILE);
        p->SetFontFile(f);
    } else {
        p->SetFontFamilyToArial();
    }
    p->BoldOff();
    p->ItalicOff();
    p->SetFontSize(static_cast<int>(std::lround(pixels)));
}

} // namespace strata::detail
