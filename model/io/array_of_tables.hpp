#pragma once
// The root's [[key]] tables, which several readers of the workload TOML share.
#include <string>

#include "model/io/toml_reader.hpp"

namespace gpuwcrt {

// nullptr without the key; an error at the key when it is not an array of tables.
inline const TomlArray* array_of_tables(const TomlReader& r, const char* key) {
    const TomlNode* n = r.root().get(key);
    if (!n) return nullptr;
    const TomlArray* a = n->as_array();
    if (!a || !a->is_array_of_tables())
        r.fail(*n, std::string("'") + key + "' must be written as [[" + key + "]] tables");
    return a;
}

}  // namespace gpuwcrt
