#pragma once
// Whether the members of a file set agree: why one member cannot join a set another began (the
// first difference, in the words the open's errors use), and the members parted into groups
// that each open as one dataset. Pure functions of the members' summaries: no file is read.
#include <string>
#include <vector>

#include "mf_summary.h"
#include "strata/io/multifile.h"

namespace strata::io::detail {

// The record dim of a set that `m` begins: its unlimited dim, else the dim of its CF time
// coordinate; empty when it has neither (it can only be opened alone).
std::string recordDimOf(const MemberSummary& m);

// Why `m` cannot be combined with `f` (the first member of a set along `rec`) on everything but
// the record dim: a dim's length, a coordinate's values, a variable's dims, type or encoding;
// empty when they agree.
std::string gridMismatch(const MemberSummary& f, const MemberSummary& m, const std::string& rec);

// `members` (those that could be read, in the order given) parted into groups that each open as
// one dataset: each member joins the first group it agrees with (the same grid, the record
// coordinate in compatible units and calendar, no record in common with a member of the group),
// else begins a group of its own. Groups come largest first (ties in the order begun), their
// files in the order given; `conflicts` says, for each member outside the first group, why it
// cannot join it.
FileGrouping groupMembers(const std::vector<const MemberSummary*>& members);

} // namespace strata::io::detail
