#pragma once
// The typeface of every text the render layer draws: DejaVu Sans, as the Qt painters draw. VTK's
// built-in "Arial" on Debian lacks square brackets, which units are written in ("zg [m]" comes
// out "zg (m)"), so VTK is given DejaVu Sans's file: the one STRATA_FONT_FILE names, else the
// one fontconfig finds (wherever a distribution installs it), else Debian's, Arch's or Fedora's
// path. Only where none is there does VTK's built-in face draw.
#include <string>

class vtkTextProperty;

namespace strata::detail {

void applyFont(vtkTextProperty* p, double pixels);

// The font file applyFont gives VTK, or empty when VTK's built-in face draws: findFontFile's
// answer at the first call, kept for the process.
const std::string& renderFontFile();
// Looks the font file up now (the settings and fontconfig as they are).
std::string findFontFile();

} // namespace strata::detail
