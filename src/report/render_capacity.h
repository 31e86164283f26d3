#pragma once

// Capacity strips for the HTML pages (explain, the report's attempts): a node's pods as bars
// whose width is their request and whose colour is their priority on a fixed scale, before and
// after a preemption, and a stepper through "remove all lower, then reprieve" with the naive
// "remove the lowest first until it fits" order beside it (the chapter's contrast). Everything
// is read from explain's JSON (a candidate's `allocatable`, `staying`, `steps`, `naiveVictims`
// and the pod's `requests`); the page's script (web/app.js) only pages through the frames.

#include <string>

#include "report/render_common.h"

namespace kpsim::report::render {

// The capacity views of `candidate` (one of `explain`'s candidates): the strips before and after
// the preemption and, with `stepper`, the frames of the reprieve beside the naive order. Empty
// when the candidate carries no capacity data (an older JSON, or no candidate at all).
std::string CandidateCapacity(const Json& explain, const Json& candidate, bool stepper);

// The fixed priority scale the strips are coloured with, as a legend.
std::string PriorityScaleLegend();

}  // namespace kpsim::report::render
