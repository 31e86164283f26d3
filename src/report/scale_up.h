#pragma once

// `simulate --scale-up`: the comparison of the two worlds on the same input (`scaleUp` in the
// JSON, the "Preempt or scale up" section of the text and the panel of the HTML report): with
// preemption, who is evicted and when the waiting pods run; with the autoscaler's new nodes
// instead, how many of which template and when the same pods run. The text (here) and the HTML
// panel (render_html.cc) render the JSON, so that the three say the same.

#include "kpsim/results.h"
#include "report/render_common.h"

namespace kpsim::report {

// `scaleUp`: the autoscaler's settings and decisions (`additions`, each with every node group's
// estimate), pods no template takes (`noTemplate`), why it stopped (`stop`, null when every pod
// it could help was placed), and `comparison`: `preempt` and `scaleUp` figures side by side
// (evictedPods, pdbsBroken, groupsBroken, nodesAdded, waited, placed, pending, meanWait,
// maxWait, lastPlacement) and `pods`, every pod that waited in either world (or was evicted),
// with its fate in each.
render::Json ScaleUpJson(const ScaleUpReport& report, const SimulationResult& scale_up_world);

// A pod's fate in one world (`comparison.pods[].preempt` or `.scaleUp`), as the text and the
// HTML word it: on its node from the start (Running, placed at 0 and never turned away: "n1
// (never waited)" rather than "n1 at 0.000s"), placed at a time, no such pod in that world,
// evicted at a time, or another state (`state` as it is).
enum class FateKind { kNeverWaited, kPlacedAt, kAbsent, kEvictedAt, kOther };
FateKind FateOf(const render::Json& fate);

// The text section ("Preempt or scale up:"), from ScaleUpJson's object.
std::string ScaleUpText(const render::Json& scale_up);

}  // namespace kpsim::report
