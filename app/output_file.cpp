#include "app/output_file.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>

#include "model/source_location.hpp"

namespace gpuwcrt::app {

void write_output_file(const std::string& path, const std::string& content) {
    if (path == "-") {
        std::cout << content;
        return;
    }
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary);
        out << content;
        if (!out.flush()) {
            std::remove(tmp.c_str());
            throw InputError({path, 0, 0}, "cannot write the output file");
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw InputError({path, 0, 0}, "cannot write the output file");
    }
}

}  // namespace gpuwcrt::app
