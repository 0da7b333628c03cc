#pragma once
// The typeface of every text the render layer draws. DejaVu Sans when the system has it (it
// comes with fontconfig on Debian): VTK's built-in "Arial" on Debian lacks square brackets,
// which units are written in. Otherwise VTK's built-in face.
class vtkTextProperty;

namespace strata::detail {

void applyFont(vtkTextProperty* p, double pixels);

} // namespace strata::detail
