#include "report/compact/compact_list.hpp"

#include <algorithm>

#include "report/display_width.hpp"

namespace gpuwcrt {

std::string compact_list(const std::vector<std::string>& items, std::size_t width, const std::string& noun,
                         const std::string& sep) {
    std::string all;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) all += sep;
        all += items[i];
    }
    if (display_width(all) <= width || items.size() < 3) return all;
    const std::string tail = sep + "…" + sep + items.back() + " (" + std::to_string(items.size()) + " " + noun + ")";
    std::string head = items.front();
    for (std::size_t i = 1; i + 1 < items.size(); ++i) {
        const std::string longer = head + sep + items[i];
        if (display_width(longer) + display_width(tail) > width) break;
        head = longer;
    }
    return head + tail;
}

}  // namespace gpuwcrt

namespace gpuwcrt {

std::string bullet_item(const std::string& text, std::size_t width) {
    const std::string first = "  - ", next = "    ";
    std::string out = first;
    std::size_t column = first.size();
    bool line_empty = true;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find(' ', at), text.size());
        const std::string word = text.substr(at, end - at);
        at = end + 1;
        if (word.empty()) continue;
        const std::size_t w = display_width(word);
        if (!line_empty && column + 1 + w > width) {
            out += "\n" + next;
            column = next.size();
            line_empty = true;
        }
        if (!line_empty) {
            out += ' ';
            ++column;
        }
        out += word;
        column += w;
        line_empty = false;
    }
    return out + "\n";
}

}  // namespace gpuwcrt
