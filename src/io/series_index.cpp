#include "series_index.hpp"

#include <algorithm>
#include <utility>

#include "inertia/core/error.hpp"
#include "inertia/core/files.hpp"
#include "io_common.hpp"

namespace inertia::io::detail {

SeriesIndex::SeriesIndex(std::filesystem::path path, Layout layout)
    : path_(std::move(path)), layout_(std::move(layout)) {}

void SeriesIndex::start(const std::filesystem::path& directory, std::optional<double> resume_up_to,
                        const Parse& parse) {
  create_output_directory(directory);
  if (resume_up_to) {
    std::optional<std::string> text;
    try {
      text = read_file(path_);
    } catch (const Error&) {
      // No earlier series: start a new one.
    }
    if (text)
      for (SeriesEntry& entry : parse(*text)) {
        if (entry.time > *resume_up_to) continue;
        next_step_ = std::max(next_step_, entry.step + 1);
        entries_.push_back(std::move(entry));
      }
  }
  // Doubles as the writability check: an empty series replaces any old index.
  try {
    write();
  } catch (const Error& e) {
    throw InputError(
        cat("output directory ", directory.string(), " is not writable (", e.what(), ")"));
  }
}

void SeriesIndex::add(double time, std::string text) {
  entries_.push_back({time, next_step_, std::move(text)});
  try {
    write();
  } catch (...) {
    entries_.pop_back();
    throw;
  }
  ++next_step_;
}

void SeriesIndex::mark_failed(const std::string& reason) noexcept {
  try {
    failure_ = xml_comment_text(reason);
    write();
  } catch (...) {
    // Best effort: the run is failing already and reports its own error.
  }
}

void SeriesIndex::write() const {
  std::string out = layout_.head;
  if (!failure_.empty())
    out += cat(layout_.comment_indent,
               "<!-- INCOMPLETE: the run failed after the last step listed here: ", failure_,
               " -->\n");
  out += layout_.before_entries;
  for (const SeriesEntry& entry : entries_) out += entry.text;
  out += layout_.tail;
  write_file_atomically(path_, out);
}

}  // namespace inertia::io::detail
