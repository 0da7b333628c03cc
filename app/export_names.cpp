#include "export_names.h"

#include <cctype>

namespace strata::app {
namespace {

// Letters, digits and ".-+" kept, a space made '-', anything else (':', '°', '/') dropped.
std::string fileNamePart(const std::string& s) {
    std::string out;
    for (char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c) || ch == '.' || ch == '-' || ch == '+')
            out += ch;
        else if (ch == ' ' && !out.empty() && out.back() != '-')
            out += '-';
    }
    return out;
}

} // namespace

std::string exportBaseName(const DataArray& frame,
                           const std::vector<std::pair<std::string, ReduceOp>>& reductions) {
    std::string out = fileNamePart(frame.name());
    if (out.empty()) out = "view";
    for (const Coordinate& c : frame.coords())
        if (c.dims.empty() && c.values.size() == 1)
            if (const std::string part = fileNamePart(c.labelWithUnits(0)); !part.empty()) out += "_" + part;
    for (const auto& [dim, op] : reductions) {
        // Appended piece by piece: "_" + std::string(...) trips GCC 12's -Wrestrict (a false alarm).
        out += '_';
        out += name(op);
        out += '-';
        out += fileNamePart(dim);
    }
    return out;
}

std::string withExtension(const std::string& path, const std::string& extension) {
    const std::size_t slash = path.find_last_of('/');
    const std::string file = slash == std::string::npos ? path : path.substr(slash + 1);
    const std::size_t dot = file.find_last_of('.');
    const bool has = dot != std::string::npos && dot > 0 && dot + 1 < file.size();
    return has ? path : path + "." + extension;
}

} // namespace strata::app
