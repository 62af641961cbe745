#include "report/trace/trace_svg.hpp"

#include <algorithm>
#include <cctype>

#include "report/gantt_svg.hpp"

namespace gpuwcrt {
namespace {

constexpr long caption_height = 28;
constexpr long default_width = 960, default_height = 360;

// The integer part of attribute `name` of the tag text, or -1.
long attribute(const std::string& tag, const std::string& name) {
    const std::string key = " " + name + "=\"";
    const auto at = tag.find(key);
    if (at == std::string::npos) return -1;
    long v = 0;
    bool any = false;
    for (std::size_t i = at + key.size(); i < tag.size() && std::isdigit(static_cast<unsigned char>(tag[i])); ++i) {
        v = v * 10 + (tag[i] - '0');
        any = true;
    }
    return any ? v : -1;
}

struct Child {
    std::string body;  // the <svg …>…</svg> element, placed with x/y
    long width, height;
};

Child place(const std::string& doc, long y) {
    const auto open = doc.find("<svg");
    if (open == std::string::npos) return {"", 0, 0};
    const auto tag_end = doc.find('>', open);
    std::string tag = doc.substr(open, tag_end - open + 1);
    long w = attribute(tag, "width"), h = attribute(tag, "height");
    if (w < 0 || h < 0) {  // fall back to the viewBox, else a fixed size
        const auto vb = tag.find("viewBox=\"");
        long nums[4] = {-1, -1, -1, -1};
        if (vb != std::string::npos) {
            std::size_t i = vb + 9;
            for (int k = 0; k < 4 && i < tag.size(); ++k) {
                while (i < tag.size() && !std::isdigit(static_cast<unsigned char>(tag[i])) && tag[i] != '"') ++i;
                long v = 0;
                bool any = false;
                while (i < tag.size() && std::isdigit(static_cast<unsigned char>(tag[i]))) {
                    v = v * 10 + (tag[i++] - '0');
                    any = true;
                }
                while (i < tag.size() && tag[i] != ' ' && tag[i] != '"') ++i;  // skip decimals
                if (any) nums[k] = v;
            }
        }
        w = w >= 0 ? w : (nums[2] > 0 ? nums[2] : default_width);
        h = h >= 0 ? h : (nums[3] > 0 ? nums[3] : default_height);
        const bool self_closing = tag.size() >= 2 && tag[tag.size() - 2] == '/';
        tag.insert(tag.size() - (self_closing ? 2 : 1),
                   " width=\"" + std::to_string(w) + "\" height=\"" + std::to_string(h) + "\"");
    }
    tag.insert(4, " x=\"0\" y=\"" + std::to_string(y) + "\"");
    std::string body = tag + doc.substr(tag_end + 1);
    while (!body.empty() && std::isspace(static_cast<unsigned char>(body.back()))) body.pop_back();
    return {body, w, h};
}

}  // namespace

std::string stack_svgs(const std::vector<std::pair<std::string, std::string>>& captioned_charts) {
    std::string inner;
    long y = 0, width = 0;
    for (const auto& [caption, doc] : captioned_charts) {
        inner += "<text x=\"8\" y=\"" + std::to_string(y + 20) +
                 "\" font-family=\"sans-serif\" font-size=\"16\" font-weight=\"bold\">" + xml_escape(caption) +
                 "</text>\n";
        y += caption_height;
        Child c = place(doc, y);
        inner += c.body + "\n";
        y += c.height;
        width = std::max(width, c.width);
    }
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" +
           std::to_string(y) + "\" viewBox=\"0 0 " + std::to_string(width) + " " + std::to_string(y) + "\">\n" +
           "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" + inner + "</svg>\n";
}

std::string trace_svg(const Workload& measured_w, const Schedule& measured, const Workload& predicted_w,
                      const Schedule& predicted) {
    // Both charts describe the same run: the predicted workload's title and unit head both.
    const ChartContext ctx = schedule_chart(predicted_w);
    return stack_svgs({{"Measured (cuda_scheduling_examiner log)", gantt_svg(measured_w, measured, ctx)},
                       {"Predicted (gpuwcrt simulate, measured issue times)", gantt_svg(predicted_w, predicted, ctx)}});
}

}  // namespace gpuwcrt
