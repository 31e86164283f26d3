#include "framework/status.h"

namespace kpsim::engine {

std::string_view CodeName(Code code) {
  switch (code) {
    case Code::kSuccess: return "Success";
    case Code::kError: return "Error";
    case Code::kUnschedulable: return "Unschedulable";
    case Code::kUnschedulableAndUnresolvable: return "UnschedulableAndUnresolvable";
    case Code::kWait: return "Wait";
    case Code::kSkip: return "Skip";
    case Code::kPending: return "Pending";
  }
  return "Unknown";
}

std::string_view PluginName(PluginId id) {
  switch (id) {
    case PluginId::kNone: return "";
    case PluginId::kNodeUnschedulable: return "NodeUnschedulable";
    case PluginId::kNodeName: return "NodeName";
    case PluginId::kTaintToleration: return "TaintToleration";
    case PluginId::kNodeAffinity: return "NodeAffinity";
    case PluginId::kNodePorts: return "NodePorts";
    case PluginId::kNodeResourcesFit: return "NodeResourcesFit";
    case PluginId::kPodTopologySpread: return "PodTopologySpread";
    case PluginId::kInterPodAffinity: return "InterPodAffinity";
    case PluginId::kDefaultPreemption: return "DefaultPreemption";
  }
  return "";
}

}  // namespace kpsim::engine
