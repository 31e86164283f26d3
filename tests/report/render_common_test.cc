#include "report/render_common.h"

#include <gtest/gtest.h>

#include "kpsim/sim_time.h"

namespace kpsim::report::render {
namespace {

SimTime At(std::int64_t micros) { return SimTime(SimDuration(micros)); }

TEST(FormatCpuTest, WholeCoresPlainElseMillicores) {
  EXPECT_EQ(FormatCpu(2000), "2");
  EXPECT_EQ(FormatCpu(1500), "1500m");
  EXPECT_EQ(FormatCpu(0), "0");
  EXPECT_EQ(FormatCpu(1), "1m");
}

TEST(FormatBytesTest, LargestExactBinarySuffixElsePlainBytes) {
  EXPECT_EQ(FormatBytes(512LL << 20), "512Mi");
  EXPECT_EQ(FormatBytes(4LL << 30), "4Gi");
  EXPECT_EQ(FormatBytes(1536LL << 20), "1536Mi");
  EXPECT_EQ(FormatBytes(1000000000), "1000000000");
  EXPECT_EQ(FormatBytes(1024), "1Ki");
  EXPECT_EQ(FormatBytes(0), "0");
  EXPECT_EQ(FormatBytes(1023), "1023");
}

TEST(ResourcesJsonTest, StandardKeysAlwaysThenExtendedByName) {
  ResourceList r;
  r.milli_cpu = 500;
  r.memory = 1LL << 30;
  r.pods = 110;
  r.SetScalar("nvidia.com/gpu", 2);
  const Json j = ResourcesJson(r);
  EXPECT_EQ(j.dump(), R"({"cpu":"500m","memory":"1Gi","ephemeral-storage":"0","pods":"110",)"
                      R"("nvidia.com/gpu":"2"})");
}

TEST(SecondsJsonTest, MillisecondPrecisionShortestForm) {
  EXPECT_EQ(SecondsJson(At(30000000)).dump(), "30.0");
  EXPECT_EQ(SecondsJson(At(1500000)).dump(), "1.5");
  EXPECT_EQ(SecondsJson(At(1000)).dump(), "0.001");
  EXPECT_EQ(SecondsJson(At(1499)).dump(), "0.001");
  EXPECT_EQ(SecondsJson(At(1500)).dump(), "0.002");
  EXPECT_EQ(SecondsJson(At(0)).dump(), "0.0");
  EXPECT_EQ(SecondsJson(At(300123456)).dump(), "300.123");
}

TEST(SecondsTextTest, ThreeDecimalsRightAligned) {
  EXPECT_EQ(SecondsText(At(30000000)), "  30.000");
  EXPECT_EQ(SecondsText(At(0)), "   0.000");
  EXPECT_EQ(SecondsText(At(123456789000)), "123456.789");
  EXPECT_EQ(SecondsText(At(-1500000), 0), "-1.500");
}

TEST(RejectedJsonTest, DecodeErrorsThenFileErrorsThenAdmissionRejections) {
  io::ReadResult read;
  io::DecodeError decode;
  decode.kind = "Pod";
  decode.name = "default/bad";
  decode.source = SourceRef{"a.yaml", 2, 7};
  decode.message = "a.yaml:7: Pod default/bad: spec.containers[0].resources.requests.cpu: bad";
  read.errors.push_back(decode);
  Error file_error = MakeError(ErrorCode::kNotFound, "no such file");
  file_error.file = "missing.yaml";
  read.file_errors.push_back(file_error);
  AdmissionResult admission;
  AdmissionOutcome ok;
  ok.admitted = true;
  AdmissionOutcome no;
  no.kind = ObjectKind::kPriorityClass;
  no.name = "system-foo";
  no.source = SourceRef{"b.yaml", 1, 1};
  no.message = "PriorityClass.scheduling.k8s.io \"system-foo\" is invalid: ...";
  admission.outcomes = {ok, no};
  const Json j = RejectedJson(&read, &admission);
  ASSERT_EQ(j.size(), 3u);
  EXPECT_EQ(j[0]["kind"], "Pod");
  EXPECT_EQ(j[0]["name"], "default/bad");
  EXPECT_EQ(j[0]["message"], decode.message);
  EXPECT_EQ(j[0]["source"], decode.source.ToString());
  EXPECT_EQ(j[1]["kind"], "");
  EXPECT_NE(j[1]["message"].get<std::string>().find("no such file"), std::string::npos);
  EXPECT_NE(j[1]["source"].get<std::string>().find("missing.yaml"), std::string::npos);
  EXPECT_EQ(j[2]["kind"], "PriorityClass");
  EXPECT_EQ(j[2]["name"], "system-foo");
  EXPECT_EQ(j[2]["message"], no.message);
  EXPECT_EQ(RejectedJson(nullptr, nullptr).dump(), "[]");
}

TEST(DumpTest, InvalidUtf8DoesNotThrow) {
  Json j = Json::object();
  j["s"] = std::string("bad \xff byte");
  std::string out;
  EXPECT_NO_THROW(out = Dump(j));
  EXPECT_EQ(out.back(), '\n');
}

}  // namespace
}  // namespace kpsim::report::render
