#include "report/assumptions/assumptions.hpp"

#include "report/compact/compact_list.hpp"

namespace gpuwcrt {

std::string to_string(AssumptionSource source) {
    static const char* const names[] = {"import", "default", "option", "argument"};  // in enum order
    return names[static_cast<int>(source)];
}

Json assumptions_json(const std::vector<Assumption>& items) {
    Json list = Json::array();
    for (const Assumption& a : items) list.push_back({{"what", a.what}, {"source", to_string(a.source)}});
    return list;
}

void print_assumptions(std::ostream& out, const std::vector<Assumption>& items) {
    if (items.empty()) return;
    out << "assumptions:\n";
    for (const Assumption& a : items) out << bullet_item(a.what + " (" + to_string(a.source) + ")");
}

}  // namespace gpuwcrt
