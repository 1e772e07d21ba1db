#pragma once
/// \file io_common.hpp
/// Helpers shared by the writers of this module (internal: not part of include/).

#include <hdf5.h>
#include <mpi.h>

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>

#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia::io::detail {

/// `text` with XML's five special characters escaped, for attribute values.
inline std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

/// Shortest text that reads back as the same double: 17 significant digits.
inline std::string format_time(double t) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, t, std::chars_format::general, 17);
  INERTIA_ASSERT(ec == std::errc());
  return std::string(buffer, end);
}

/// `value` in decimal, with leading zeros up to `width` digits.
inline std::string zero_padded(int value, int width) {
  std::string digits = std::to_string(value);
  if (static_cast<int>(digits.size()) < width)
    digits.insert(0, static_cast<std::size_t>(width) - digits.size(), '0');
  return digits;
}

/// Collective. A series' name must be a plain file name and its directory given (InputError on
/// every rank otherwise).
inline void check_series_name(MPI_Comm comm, const std::filesystem::path& directory,
                              const std::string& name) {
  run_collectively(comm, [&] {
    INERTIA_CHECK(
        !name.empty() && name.find('/') == std::string::npos && name != "." && name != "..",
        InputError, "output name '", name, "' is not a plain file name");
    INERTIA_CHECK(!directory.empty(), InputError, "output directory is empty");
  });
}

/// Creates `directory` if missing; InputError if it cannot be made or is not a directory.
inline void create_output_directory(const std::filesystem::path& directory) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  INERTIA_CHECK(!ec, InputError, "cannot create output directory ", directory.string(), ": ",
                ec.message());
  INERTIA_CHECK(std::filesystem::is_directory(directory, ec), InputError, "output directory ",
                directory.string(), " is not a directory");
}

/// `reason` made fit for an XML comment (which may not contain "--") on one line.
inline std::string xml_comment_text(std::string reason) {
  for (auto& ch : reason)
    if (ch == '-' || ch == '\n') ch = ' ';
  return reason;
}

/// Collective. Refuses, on every rank, a write of about `needed` bytes into `directory` that the
/// free space (the least any rank sees) would not hold: IoError "<file>: No space left on device
/// (<what> needs about N KiB, M KiB are free)". HDF5 can leave a rank waiting for ever when the
/// disk fills in the middle of a collective write, so its writers ask first. Where the file
/// system cannot say, nothing is refused.
inline void require_free_space(MPI_Comm comm, const std::filesystem::path& directory,
                               const std::filesystem::path& file, std::uint64_t needed,
                               std::string_view what) {
  std::error_code ec;
  const std::filesystem::space_info space = std::filesystem::space(directory, ec);
  unsigned long long available = ec ? ~0ull : static_cast<unsigned long long>(space.available);
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &available, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, comm));
  if (available < needed)
    throw IoError(cat(file.string(), ": ", std::strerror(ENOSPC), " (", what, " needs about ",
                      needed >> 10, " KiB, ", available >> 10, " KiB are free)"));
}

/// HDF5's automatic printing of its error stack, off for the scope of the object (our errors say
/// what went wrong in one line).
class QuietHdf5 {
 public:
  QuietHdf5() {
    H5Eget_auto2(H5E_DEFAULT, &function_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  QuietHdf5(const QuietHdf5&) = delete;
  QuietHdf5& operator=(const QuietHdf5&) = delete;
  ~QuietHdf5() { H5Eset_auto2(H5E_DEFAULT, function_, data_); }

 private:
  H5E_auto2_t function_ = nullptr;
  void* data_ = nullptr;
};

}  // namespace inertia::io::detail
