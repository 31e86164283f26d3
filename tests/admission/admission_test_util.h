#pragma once

// Shared helpers for the admission tests.

#include <vector>

#include "kpsim/admission.h"
#include "testing/builders.h"

namespace kpsim::testing {

// Admits `objects` with default feature gates.
inline AdmissionResult AdmitAll(const std::vector<Object>& objects,
                                const FeatureGates& gates = FeatureGates{}) {
  return Admit(objects, gates);
}

// The outcome of the last object.
inline const AdmissionOutcome& Last(const AdmissionResult& r) { return r.outcomes.back(); }

}  // namespace kpsim::testing
