#include "support.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "bounds/interference/interference.hpp"
#include "encode/block/block_problem.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/write_toml.hpp"
#include "sim/simulate.hpp"
#include "sim/witness.hpp"

namespace gpuwcrt::test {
namespace {

std::string quote(const std::string& s) {
    std::string q(1, '\'');
    for (char c : s) {
        if (c == '\'') q.append("'\\''");
        else q.push_back(c);
    }
    q.push_back('\'');
    return q;
}

// A text's box read back from the SVG. Doubles are fine here: this is pixel geometry, not a time.
struct SvgTextBox {
    double x0, y0, x1, y1;
    std::string text;
    std::string where() const {
        std::ostringstream o;
        o << "'" << text << "' at " << x0 << "," << y0 << " to " << x1 << "," << y1;
        return o.str();
    }
};

std::string svg_attr(const std::string& tag, const std::string& name) {
    const std::regex re("\\s" + name + "=\"([^\"]*)\"");
    std::smatch m;
    return std::regex_search(tag, m, re) ? m[1].str() : "";
}

std::size_t svg_columns(const std::string& s) {  // ASCII and "…" only in these charts
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

std::string svg_unescape(std::string s) {
    for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
             {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&amp;", "&"}})
        for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
            s.replace(p, from.size(), to);
    return s;
}

std::vector<SvgTextBox> svg_text_boxes(const std::string& svg) {
    std::vector<SvgTextBox> out;
    const std::regex text_re("<text([^>]*)>([^<]*)</text>");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), text_re); it != std::sregex_iterator(); ++it) {
        const std::string tag = (*it)[1], s = svg_unescape((*it)[2]);
        const double x = std::stod(svg_attr(tag, "x")), y = std::stod(svg_attr(tag, "y"));
        const double font = std::stod(svg_attr(tag, "font-size"));
        const double width = static_cast<double>(svg_columns(s)) * font * 0.66;
        const std::string anchor = svg_attr(tag, "text-anchor");
        const double x0 = anchor == "middle" ? x - width / 2 : anchor == "end" ? x - width : x;
        out.push_back({x0, y - 0.8 * font, x0 + width, y + 0.25 * font, s});
    }
    return out;
}

const std::string svg_ellipsis = "\u2026";

// Every text cut with "…" sits in a group whose tooltip holds the whole text: its start before
// the "…" and its end after it.
void svg_cut_text_problems(const std::string& svg, std::vector<std::string>& problems) {
    const std::regex re("(<g><title>([^<]*)</title>)?<text[^>]*>([^<]*)</text>");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it) {
        const std::string text = svg_unescape((*it)[3]), whole = svg_unescape((*it)[2]);
        const std::size_t cut = text.find(svg_ellipsis);
        if (cut == std::string::npos) continue;
        const std::string head = text.substr(0, cut), tail = text.substr(cut + svg_ellipsis.size());
        if (!(*it)[1].matched) problems.push_back("'" + text + "' is cut and no tooltip holds the whole text");
        else if (whole == text || whole.size() < head.size() + tail.size() || whole.rfind(head, 0) != 0 ||
                 whole.compare(whole.size() - tail.size(), tail.size(), tail) != 0)
            problems.push_back("the tooltip '" + whole + "' is not the whole of the cut '" + text + "'");
    }
}

// Lane titles (class "stream" or "lane-title", bold ones a tenth wider) end before the lanes
// (rects of class "lane") begin.
void svg_lane_title_problems(const std::string& svg, std::vector<std::string>& problems) {
    double lanes_x = 1e9;
    const std::regex lane_re("<rect x=\"([0-9.]+)\"[^>]*class=\"lane\"");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), lane_re); it != std::sregex_iterator(); ++it)
        lanes_x = std::min(lanes_x, std::stod((*it)[1]));
    const std::regex title_re("<text([^>]*class=\"(stream|lane-title)\"[^>]*)>([^<]*)</text>");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), title_re); it != std::sregex_iterator(); ++it) {
        const std::string tag = (*it)[1], text = svg_unescape((*it)[3]);
        const double bold = svg_attr(tag, "font-weight") == "bold" ? 1.1 : 1.0;
        const double right = std::stod(svg_attr(tag, "x")) + static_cast<double>(svg_columns(text)) *
                                                                 std::stod(svg_attr(tag, "font-size")) * 0.66 * bold;
        if (right > lanes_x)
            problems.push_back("the lane title '" + text + "' runs into the lanes at x " + std::to_string(lanes_x));
    }
}

}  // namespace

std::vector<std::string> svg_text_problems(const std::string& svg) {
    constexpr double slack = 0.02;  // pixels are printed rounded down to 1/100
    const std::string root = svg.substr(svg.find("<svg"), svg.find('>', svg.find("<svg")) - svg.find("<svg"));
    const double width = std::stod(svg_attr(root, "width")), height = std::stod(svg_attr(root, "height"));
    const std::vector<SvgTextBox> boxes = svg_text_boxes(svg);
    std::vector<std::string> problems;
    if (boxes.empty()) problems.push_back("no text at all");
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        const SvgTextBox& a = boxes[i];
        if (a.x0 < -slack || a.y0 < -slack || a.x1 > width + slack || a.y1 > height + slack)
            problems.push_back("outside the canvas: " + a.where());
        for (std::size_t j = 0; j < i; ++j) {
            const SvgTextBox& b = boxes[j];
            if (a.x0 + slack < b.x1 && b.x0 + slack < a.x1 && a.y0 + slack < b.y1 && b.y0 + slack < a.y1)
                problems.push_back(a.where() + " overlaps " + b.where());
        }
    }
    const std::regex arrow_re("<line([^>]*class=\"launch-arrow\"[^>]*)>");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), arrow_re); it != std::sregex_iterator(); ++it) {
        const std::string tag = (*it)[1];
        const double x = std::stod(svg_attr(tag, "x1")), y1 = std::stod(svg_attr(tag, "y1"));
        const double y2 = std::stod(svg_attr(tag, "y2"));
        for (const SvgTextBox& b : boxes)
            if (b.x0 < x + 0.75 && x - 0.75 < b.x1 && b.y0 < std::max(y1, y2) && std::min(y1, y2) < b.y1)
                problems.push_back("the launch arrow at x " + std::to_string(x) + " crosses " + b.where());
    }
    svg_cut_text_problems(svg, problems);
    svg_lane_title_problems(svg, problems);
    return problems;
}

std::pair<int, std::string> validate_json_text(const std::string& schema, const std::string& text) {
    const std::string dir = temp_dir();
    const std::string file = write_file(dir, "out.json", text), log = dir + "/log";
    const std::string cmd = "python3 " + quote(source_path("tests/validate_json.py")) + " " +
                            quote(source_path("docs/schema/" + schema + ".json")) + " " + quote(file) + " >" +
                            quote(log) + " 2>&1";
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(log)};
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

std::size_t occurrences(const std::string& text, const std::string& part) {
    std::size_t n = 0;
    for (std::size_t p = text.find(part); p != std::string::npos; p = text.find(part, p + 1)) ++n;
    return n;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Built one step at a time: GCC 12 warns (falsely, inside Boost) about Time(num, den).
Time fraction(int num, int den) {
    Time t = num;
    t /= den;
    return t;
}

std::string source_path(const std::string& relative) { return std::string(GPUWCRT_SOURCE_DIR) + "/" + relative; }

std::string write_file(const std::string& dir, const std::string& name, const std::string& text) {
    const std::string path = dir + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

std::string temp_dir() {
    char tmpl[] = "/tmp/gpuwcrt-test-XXXXXX";
    if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
    return tmpl;
}

int spawn_cli(const std::vector<std::string>& args, const std::string& out, const std::string& err) {
    std::vector<std::string> argv_text{GPUWCRT_BINARY};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0 || dup2(o, STDOUT_FILENO) < 0 || dup2(e, STDERR_FILENO) < 0) _exit(127);
        execv(argv[0], argv.data());
        _exit(127);
    }
    return pid;
}

CliRun run_cli(const std::vector<std::string>& args, const std::string& stdin_text) {
    const std::string dir = temp_dir();
    const std::string in = dir + "/in", out = dir + "/out", err = dir + "/err";
    std::ofstream(in) << stdin_text;
    std::string cmd = quote(GPUWCRT_BINARY);
    for (const auto& a : args) cmd.append(" ").append(quote(a));
    cmd.append(" <").append(quote(in)).append(" >").append(quote(out)).append(" 2>").append(quote(err));
    int status = std::system(cmd.c_str());
    CliRun r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    std::system(("rm -rf " + quote(dir)).c_str());
    return r;
}

std::vector<std::string> workload_case_files() {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(source_path("cases")))
        if (e.path().extension() == ".toml" && e.path().parent_path().filename() != "raravi2010")
            out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

Workload workload_from(const std::string& toml) { return load_workload_text(toml, "test.toml"); }

SimultaneousCase simultaneous_kernels_file(int kernels, std::uint64_t seed) {
    RandomWorkloadSpec spec;
    spec.kernels = kernels;
    spec.streams = kernels;
    const Workload w = random_workload(spec, seed);
    SimultaneousCase c{temp_dir() + "/n" + std::to_string(kernels) + ".toml", 0, 0};
    std::ofstream(c.file) << workload_to_toml(w);
    const BlockProblem p = make_block_problem(w);
    c.k1_upper = p.response_upper_bound(static_cast<int>(p.index_of_op(0)));
    c.k1_proven = std::min(c.k1_upper, interference_bounds(w, Budget{}).response[0].value_or(c.k1_upper));
    return c;
}

// Random concrete scenarios: ties, placement, block times on the tick grid (interior points
// included), window instants.
Schedule random_scenario(const Workload& w, std::mt19937_64& rng, int grid, Policy policy) {
    WitnessScenario x;
    x.block_time.assign(w.ops.size(), {});
    x.issue.assign(w.ops.size(), std::nullopt);
    auto point = [&](const TimeRange& r) {
        const long step = static_cast<long>(rng() % (grid + 1));
        return r.lo + (r.hi - r.lo) * Time(step, grid);
    };
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        const Operation& o = w.ops[op];
        const std::int64_t n = o.is_kernel() ? o.blocks : 1;
        for (std::int64_t j = 0; j < n; ++j) x.block_time[op].push_back(point(o.time));
        if (o.issue.kind == IssueSpec::Kind::at) x.issue[op] = point(o.issue.at);
    }
    Scenario sc = witness_scenario(w, x);
    sc.rank.resize(w.ops.size());
    for (long& r : sc.rank) r = static_cast<long>(rng() % 8);
    sc.fixed_sm.clear();
    sc.policy = policy;
    if (policy == Policy::chooser)
        sc.choose = [&rng](const PlacementRequest& r) { return r.fitting[rng() % r.fitting.size()]; };
    return simulate(w, sc);
}

RandomWorkloadSpec frames_spec(std::mt19937_64& rng, int extra_kernels) {
    auto pick = [&](std::uint64_t n) { return static_cast<int>(rng() % n); };
    RandomWorkloadSpec spec;
    spec.streams = 2 + pick(2);
    spec.kernels = spec.streams + pick(static_cast<std::uint64_t>(extra_kernels));
    spec.max_blocks = 4;
    spec.max_block_time = 3;
    spec.interval_percent = 30;
    spec.copy_percent = 15;
    spec.high_priority_streams = pick(3) == 0 ? 1 : 0;
    spec.after_idle_percent = 20;  // after_stream_idle in a frame: issued from its release
    return spec;
}

void add_same_period_waits(Workload& w, std::mt19937_64& rng, int one_in) {
    for (Operation& op : w.ops) {
        if (rng() % static_cast<std::uint64_t>(one_in) != 0) continue;
        for (std::size_t d = 0; d < w.ops.size(); ++d) {
            const Operation& other = w.ops[d];
            if (other.stream < op.stream &&
                w.streams[other.stream].arrival.period == w.streams[op.stream].arrival.period) {
                op.wait.push_back(static_cast<int>(d));
                break;
            }
        }
    }
}

RandomWorkloadSpec ranges_spec(std::uint64_t seed) {
    RandomWorkloadSpec s;
    s.kernels = 2 + static_cast<int>(seed % 3);        // 2..4 operations
    s.streams = 1 + static_cast<int>((seed / 3) % 3);  // over 1..3 streams
    s.threads = {256, 512, 768, 1024};
    s.shared_kib = {0, 32, 48};
    s.max_blocks = 2;
    s.max_block_time = 4;
    s.block_time_denominator = 2;  // intervals [C, C + 1/2 or 1]: 2 or 3 grid values, as windows
    s.staggered_issue = (seed / 5) % 2 == 1;
    s.sms = 1 + static_cast<int>((seed / 7) % 3);                   // 1..3 SMs
    const bool intervals = seed % 4 != 0, windows = seed % 4 != 1;  // both in 3 of 4 seeds
    s.interval_percent = intervals ? 40 : 0;
    s.window_percent = windows ? 50 : 0;
    s.copy_percent = (seed / 4) % 2 ? 35 : 0;
    s.high_priority_streams = (seed / 8) % 2 && s.streams > 1 ? 1 : 0;
    s.null_stream = (seed / 16) % 2 == 1 && s.streams > 1;
    s.after_idle_percent = (seed / 11) % 3 != 0 ? 50 : 0;
    return s;
}

std::int64_t grid_combinations(const BlockProblem& p) {
    std::int64_t n = 1;
    for (int o = 0; o < p.ops(); ++o) {
        const std::int64_t units = p.kernel_of_op[o] >= 0 ? p.blocks[p.kernel_of_op[o]] : 1;
        for (std::int64_t j = 0; j < units; ++j) n *= p.duration[o] - p.duration_lo[o] + 1;
        n *= p.issue_hi[o] - p.issue_value[o] + 1;
    }
    return n;
}

Policy policy_for(std::uint64_t seed) {
    switch (seed % 3) {
        case 0:
            return Policy::chooser;
        case 1:
            return Policy::most_room;
        default:
            return Policy::first_fit;
    }
}

}  // namespace gpuwcrt::test
