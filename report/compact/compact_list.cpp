#include "report/compact/compact_list.hpp"

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
