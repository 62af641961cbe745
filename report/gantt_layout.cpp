#include "report/gantt_layout.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "common/utf8.hpp"
#include "report/display_width.hpp"

namespace gpuwcrt {

std::vector<std::int64_t> pack_block_offsets(const Workload& w, const Schedule& s) {
    const std::int64_t cap = w.platform.threads_per_sm;
    std::vector<std::int64_t> offset(s.blocks.size(), 0);
    std::map<int, std::vector<std::size_t>> by_sm;
    for (std::size_t i = 0; i < s.blocks.size(); ++i) by_sm[s.blocks[i].sm].push_back(i);
    auto threads = [&](std::size_t i) { return w.ops[s.blocks[i].kernel].threads; };
    for (auto& [sm, idx] : by_sm) {
        std::stable_sort(idx.begin(), idx.end(),
                         [&](std::size_t a, std::size_t b) { return s.blocks[a].start < s.blocks[b].start; });
        std::vector<std::size_t> active;
        for (std::size_t i : idx) {
            const BlockTiming& b = s.blocks[i];
            std::erase_if(active, [&](std::size_t a) { return s.blocks[a].end <= b.start; });
            const std::int64_t n = threads(i);
            auto free_at = [&](std::int64_t lo) {
                return lo >= 0 && std::none_of(active.begin(), active.end(), [&](std::size_t a) {
                           return lo < offset[a] + threads(a) && offset[a] < lo + n;
                       });
            };
            // Candidates touch a lane edge or an active block. Leaning on whatever stays longest
            // (an edge stays forever) keeps the free space in one piece when neighbours end, so
            // later blocks still find a contiguous range (dynamic storage allocation is NP-hard;
            // this heuristic only has to look right). Ties go to the lowest offset.
            struct Candidate {
                std::int64_t lo;
                std::optional<Time> neighbour_end;
            };  // nullopt: an edge
            std::vector<Candidate> cands{{0, std::nullopt}, {cap - n, std::nullopt}};
            for (std::size_t a : active) {
                cands.push_back({offset[a] + threads(a), s.blocks[a].end});
                cands.push_back({offset[a] - n, s.blocks[a].end});
            }
            auto better = [](const Candidate& x, const Candidate& y) {
                if (x.neighbour_end.has_value() != y.neighbour_end.has_value()) return !x.neighbour_end.has_value();
                if (x.neighbour_end && *x.neighbour_end != *y.neighbour_end) return *x.neighbour_end > *y.neighbour_end;
                return x.lo < y.lo;
            };
            std::optional<Candidate> best;
            for (const Candidate& c : cands)
                if (c.lo + n <= cap && free_at(c.lo) && (!best || better(c, *best))) best = c;
            if (!best) {  // no room within the lane (fragmented): stack above, the lane grows
                std::int64_t top = 0;
                for (std::size_t a : active) top = std::max(top, offset[a] + threads(a));
                best = Candidate{top, std::nullopt};
            }
            offset[i] = best->lo;
            active.push_back(i);
        }
    }
    return offset;
}

Time tick_step(const Time& span, int max_ticks) {
    Time step(1, 1000000);
    const int mantissa[] = {1, 2, 5};
    for (int k = 0;; ++k) {
        Time candidate = step * mantissa[k % 3];
        if (span / candidate <= max_ticks) return candidate;
        if (k % 3 == 2) step *= 10;
    }
}

std::string px(const Time& pixels) {
    const BigInt hundredths =
        boost::multiprecision::numerator(pixels) * 100 / boost::multiprecision::denominator(pixels);
    return human_string(Time(hundredths, 100));
}

Time text_width(const std::string& s, const Time& font) {
    return Time(static_cast<long>(display_width(s))) * font * text_em_width;
}

TextBox text_box(const Time& x, const Time& baseline, const std::string& s, const Time& font, Anchor a) {
    const Time width = text_width(s, font);
    const Time x0 = a == Anchor::start ? x : a == Anchor::middle ? Time(x - width / 2) : Time(x - width);
    return {x0, baseline - font * 8 / 10, x0 + width, baseline + font / 4};
}

namespace {

// Where `s` may be cut: after every character but the last, never inside one.
std::vector<std::size_t> cut_points(const std::string& s) {
    std::vector<std::size_t> cuts = utf8_ends(s);
    if (!cuts.empty()) cuts.pop_back();
    return cuts;
}

}  // namespace

std::string shorten_to(const std::string& s, const Time& font, const Time& max_width) {
    if (text_width(s, font) <= max_width) return s;
    const std::vector<std::size_t> cuts = cut_points(s);
    for (auto it = cuts.rbegin(); it != cuts.rend(); ++it) {
        const std::string cut = s.substr(0, *it) + "\u2026";
        if (text_width(cut, font) <= max_width) return display_width(cut) >= 4 ? cut : "";
    }
    return "";
}

std::string shorten_middle_to(const std::string& s, const Time& font, const Time& max_width) {
    if (text_width(s, font) <= max_width) return s;
    const std::vector<std::size_t> cuts = cut_points(s);
    for (std::size_t keep = cuts.size(); keep >= 2; --keep) {
        const std::size_t head = keep / 2, tail = keep - head;  // characters kept at each end
        const std::string cut = s.substr(0, cuts[head - 1]) + "\u2026" + s.substr(cuts[cuts.size() - tail]);
        if (text_width(cut, font) <= max_width) return cut;
    }
    return shorten_to(s, font, max_width);
}

bool LabelSpace::free(const TextBox& b) const {
    if (!b.within(canvas_)) return false;
    return std::none_of(taken_.begin(), taken_.end(), [&](const TextBox& t) { return t.overlaps(b); });
}

bool LabelSpace::take_if_free(const TextBox& b) {
    if (!free(b)) return false;
    take(b);
    return true;
}

std::vector<int> interval_rows(const std::vector<std::pair<Time, Time>>& spans, const Time& gap) {
    std::vector<Time> row_end;
    std::vector<int> row;
    for (const auto& [start, end] : spans) {
        std::size_t r = 0;
        while (r < row_end.size() && row_end[r] + gap > start) ++r;
        if (r == row_end.size()) row_end.push_back(end);
        row_end[r] = end;
        row.push_back(static_cast<int>(r));
    }
    return row;
}

PixelScale window_scale(const Time& left, const Time& width, const Time& end, const std::optional<TimeWindow>& window) {
    if (!window) return PixelScale{left, width / end};
    const Time per_unit = width / (window->to - window->from);
    return PixelScale{left - window->from * per_unit, per_unit, window};
}

}  // namespace gpuwcrt
