#pragma once
// Writes a workload in the gpuwcrt TOML input format (docs/reference/input-format.md) such that
// load_workload_text(workload_to_toml(w)) gives back an equal workload: same platform,
// streams (in order, explicit [[stream]] tables, with their period or min_interarrival, offset
// and jitter), operations (kernels and copies interleaved in Workload::ops order), exact times,
// issue specifications, deadlines, waits and [scenario]. An unrolled workload (model/frames/
// unroll.hpp) whose after_stream_idle carries a frame's release has no such form: std::logic_error.
// Expectations are not written: a written file states a workload, not claims about it.
#include <string>
#include <vector>

#include "model/workload.hpp"

namespace gpuwcrt {

struct TomlWriteOptions {
    std::string title;                  // `title = "…"` when not empty
    std::string source;                 // `source = "…"` when not empty
    std::vector<std::string> comments;  // "# …" lines at the top of the file
};

// Platform values equal to the TX2 defaults are left out ([platform] only when something
// differs). An operation whose IssueSpec is `with_previous` gets no issue key; one that is
// first in its stream always gets `issue` or `after_stream_idle`. Integer times are written
// as integers, terminating decimals as decimals (0.4), other rationals as strings ("1/3").
std::string workload_to_toml(const Workload& w, const TomlWriteOptions& options = {});

// A TOML basic string with quotes, escaping what TOML requires ("a \"b\"").
std::string toml_quoted(const std::string& text);

// A time as a TOML value: 4, 0.4 or "1/3".
std::string toml_time(const Time& t);

}  // namespace gpuwcrt
