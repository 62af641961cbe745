#include "model/io/read_input.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/input_limits.hpp"
#include "model/source_location.hpp"

namespace gpuwcrt {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& message) { throw InputError({path, 0, 0}, message); }

const char* kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "is a directory";
    if (S_ISCHR(mode)) return "is a character device, not a file";
    if (S_ISBLK(mode)) return "is a block device, not a file";
    if (S_ISSOCK(mode)) return "is a socket, not a file";
    return nullptr;  // a regular file or a pipe
}

// Closes the descriptor on every path out, errors included.
struct Fd {
    int fd;
    ~Fd() {
        if (fd > 0) ::close(fd);  // 0 is standard input, not ours to close
    }
};

}  // namespace

std::string read_input_file(const std::string& path) {
    const std::string name = path == "-" ? "<stdin>" : path;
    Fd f{path == "-" ? 0 : ::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (f.fd < 0) fail(name, std::string("cannot open the file: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(f.fd, &st) != 0) fail(name, std::string("cannot read the file: ") + std::strerror(errno));
    // Standard input may be a terminal; anything given by name must be a file or a pipe.
    if (const char* kind = kind_of(st.st_mode); kind && path != "-") fail(name, kind);
    std::string text;
    // A file's size is known: one allocation instead of doubling up to it.
    if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) <= limits::max_input_bytes)
        text.reserve(static_cast<std::size_t>(st.st_size));
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(f.fd, buf, sizeof buf);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR) continue;
            fail(name, std::string("cannot read the file: ") + std::strerror(errno));
        }
        if (text.size() + static_cast<std::size_t>(n) > limits::max_input_bytes)
            fail(name, "is larger than the input limit of 1 GiB");
        text.append(buf, static_cast<std::size_t>(n));
    }
    return text;
}

}  // namespace gpuwcrt
