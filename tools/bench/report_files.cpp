#include "report_files.hpp"

#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>
#include <utility>
#include <vector>

#include "cuda_check.hpp"
#include "device_report.hpp"

namespace tilemm::bench {
namespace {

using Json = nlohmann::ordered_json;

// JSON has no NaN or infinity; a missing or non-finite number is null.
Json number(std::optional<double> v) {
  if (!v || !std::isfinite(*v)) return nullptr;
  return *v;
}

Json device_json(const BenchReport& report) {
  const DeviceReport& d = report.device;
  return Json{
      {"index", d.index},
      {"name", d.name},
      {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
      {"sm_count", d.sm_count},
      {"max_sm_clock_mhz", d.max_sm_clock_khz / 1e3},
      {"max_threads_per_sm", d.max_threads_per_sm},
      {"l2_bytes", d.l2_bytes},
      {"global_memory_bytes", d.global_memory_bytes},
      {"copy_bandwidth_gb_per_s", d.copy_bandwidth_bytes_per_s / 1e9},
      {"copy_bytes", d.copy_bytes},
      {"peak_tflops", d.peak_flops > 0.0 ? Json(d.peak_flops / 1e12) : Json(nullptr)},
      {"flops_per_sm_per_clock", d.flops_per_sm_per_clock > 0 ? Json(d.flops_per_sm_per_clock) : Json(nullptr)},
      {"peak_basis", d.peak_basis},
      {"cuda_runtime", cuda_version_string(d.runtime_version)},
      {"cuda_toolkit", cuda_version_string(d.toolkit_version)},
      {"driver_cuda", cuda_version_string(d.driver_version)},
      {"driver_release", d.driver_release},
      {"cublas", report.cublas_version},
  };
}

Json settings_json(const BenchSettings& s) {
  return Json{{"dtype", s.dtype},
              {"suite", s.suite},
              {"tune", s.tune},
              {"tune_family", s.tune_family},
              {"warmup", s.warmup},
              {"iterations", s.iterations},
              {"budget_seconds", s.budget_seconds},
              {"cooldown_ms", s.cooldown_ms},
              {"interleave", s.interleave},
              {"interleave_shapes", s.interleave_shapes},
              {"back_to_back", s.back_to_back},
              {"verify", s.verify},
              {"seed", s.seed}};
}

// The fields of a row, in one place, so that JSON and CSV always carry the same ones.
std::vector<std::pair<const char*, Json>> row_fields(const RunResult& r) {
  const auto& res = r.resources;
  const auto resource = [&](auto member) -> Json {
    if (!res) return nullptr;
    return std::invoke(member, *res);
  };
  return {
      {"m", r.shape.m},
      {"n", r.shape.n},
      {"k", r.shape.k},
      {"batch", r.shape.batch},
      {"trans", op_code(r.shape.opa, r.shape.opb)},
      {"tune_class", r.shape.tune_class},
      {"dtype", r.dtype},
      {"alpha", r.alpha},
      {"beta", r.beta},
      {"flops", r.shape.flops()},
      {"requested", r.requested},
      {"kernel", r.kernel},
      {"is_cublas", r.is_cublas},
      {"family", r.family},
      {"ladder_step", r.ladder_step ? Json(*r.ladder_step) : Json(nullptr)},
      {"status", row_status_name(r.status)},
      {"status_detail", r.status_detail},
      {"time_ms", number(r.time_ms)},
      {"time_min_ms", number(r.time_min_ms)},
      {"time_max_ms", number(r.time_max_ms)},
      {"host_call_ms", number(r.host_call_ms)},
      {"warmup", r.warmup},
      {"iterations", r.iterations},
      {"requested_iterations", r.requested_iterations},
      {"reduced_iterations", r.reduced_iterations},
      {"input_sets", r.input_sets},
      {"input_footprint_bytes", r.input_footprint_bytes},
      {"tflops", number(r.tflops)},
      {"percent_of_cublas", number(r.percent_of_cublas)},
      {"percent_of_peak", number(r.percent_of_peak)},
      {"arithmetic_intensity", number(r.arithmetic_intensity)},
      {"registers_per_thread", resource(&ResourceUsage::registers_per_thread)},
      {"static_smem_bytes", resource(&ResourceUsage::static_smem_bytes)},
      {"dynamic_smem_bytes", resource(&ResourceUsage::dynamic_smem_bytes)},
      {"smem_per_block_bytes", res ? Json(res->smem_per_block()) : Json(nullptr)},
      {"threads_per_block", resource(&ResourceUsage::threads_per_block)},
      {"active_blocks_per_sm", resource(&ResourceUsage::active_blocks_per_sm)},
      {"occupancy", resource(&ResourceUsage::occupancy)},
      {"verified_against", r.verified_against},
      {"error", number(r.error)},
      {"relative_error", number(r.relative_error)},
      {"tolerance", number(r.tolerance)},
      {"check", check_name(r.check)},
      {"note", r.note},
  };
}

Json comparison_json(const CublasComparison& c) {
  return Json{{"requested", c.requested},         {"shapes", c.shapes},
              {"geomean_ratio", number(c.geomean_ratio)}, {"worst_shape", c.worst_shape.label()},
              {"worst_kernel", c.worst_kernel},   {"worst_ratio", number(c.worst_ratio)}};
}

// null outside a tuning run, so that every report has the same keys.
Json tune_json(const std::optional<TuneSummary>& tune) {
  if (!tune) return nullptr;
  Json winners = Json::array();
  for (const TuneWinner& w : tune->winners) {
    winners.push_back(Json{{"tune_class", w.shape.tune_class},
                           {"shape", w.shape.label()},
                           {"configurations", w.configurations},
                           {"fastest", w.fastest},
                           {"fastest_ms", number(w.fastest_ms)},
                           {"fastest_tflops", number(w.fastest_tflops)},
                           {"fastest_vs_cublas", number(w.fastest_vs_cublas)},
                           {"auto_kernel", w.auto_kernel},
                           {"auto_chose_fastest", w.auto_chose_fastest()},
                           {"auto_slowdown", number(w.auto_slowdown)}});
  }
  Json speeds = Json::array();
  for (const RelativeSpeed& s : tune->relative_speeds) {
    speeds.push_back(Json{{"kernel", s.kernel}, {"relative_speed", number(s.relative_speed)}, {"shapes", s.shapes}});
  }
  return Json{{"class", tune->tune_class},
              {"family", tune->family},
              {"winners", std::move(winners)},
              {"large_squares", tune->large_squares},
              {"relative_speeds", std::move(speeds)}};
}

std::string csv_field(const Json& value) {
  if (value.is_null()) return "";
  std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

template <class Writer>
void write_file(const std::string& path, const BenchReport& report, Writer&& writer) {
  std::ofstream out(path);
  if (!out) throw BenchError("cannot open " + path + " for writing");
  writer(out, report);
  out.close();
  if (!out) throw BenchError("writing " + path + " failed");
}

}  // namespace

Json report_to_json(const BenchReport& report) {
  Json rows = Json::array();
  for (const auto& r : report.rows) {
    Json row = Json::object();
    for (auto& [key, value] : row_fields(r)) row[key] = std::move(value);
    rows.push_back(std::move(row));
  }
  Json comparisons = Json::array();
  for (const auto& c : report.comparisons) comparisons.push_back(comparison_json(c));
  return Json{{"schema", kJsonSchema},
              {"tool", Json{{"name", "tilemm-bench"}, {"version", report.tool_version}}},
              {"date_utc", report.date_utc},
              {"command_line", report.settings.command_line},
              {"device", device_json(report)},
              {"settings", settings_json(report.settings)},
              {"results", std::move(rows)},
              {"comparisons", std::move(comparisons)},
              {"tune", tune_json(report.tune)}};
}

void write_json(std::ostream& out, const BenchReport& report) { out << report_to_json(report).dump(2) << '\n'; }

void write_csv(std::ostream& out, const BenchReport& report) {
  // The banner's fields lead each line; then the row's.
  const Json device = device_json(report);
  std::vector<std::pair<std::string, Json>> banner{{"date_utc", report.date_utc}};
  for (const auto& [key, value] : device.items()) banner.emplace_back("device_" + key, value);
  const auto header_fields = row_fields(RunResult{});
  const auto write_line = [&](const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) out << (i == 0 ? "" : ",") << fields[i];
    out << '\n';
  };
  std::vector<std::string> header;
  for (const auto& [key, value] : banner) header.push_back(key);
  for (const auto& [key, value] : header_fields) header.emplace_back(key);
  write_line(header);
  for (const auto& r : report.rows) {
    std::vector<std::string> fields;
    for (const auto& [key, value] : banner) fields.push_back(csv_field(value));
    for (const auto& [key, value] : row_fields(r)) fields.push_back(csv_field(value));
    write_line(fields);
  }
}

void write_json_file(const std::string& path, const BenchReport& report) {
  write_file(path, report, [](std::ostream& out, const BenchReport& r) { write_json(out, r); });
}

void write_csv_file(const std::string& path, const BenchReport& report) {
  write_file(path, report, [](std::ostream& out, const BenchReport& r) { write_csv(out, r); });
}

}  // namespace tilemm::bench
