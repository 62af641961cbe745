#include "report/text_table.hpp"

#include <algorithm>

namespace gpuwcrt {

void TextTable::print(std::ostream& out) const {
    std::vector<std::size_t> width;
    for (const auto& row : rows_) {
        width.resize(std::max(width.size(), row.size()), 0);
        for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
    }
    for (const auto& row : rows_) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            line += row[c];
            if (c + 1 < row.size()) line += std::string(width[c] - row[c].size() + 2, ' ');
        }
        out << line << '\n';
    }
}

}  // namespace gpuwcrt
