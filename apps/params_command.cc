// rocetb params import SOURCE... [--format KIND] [--out FILE]
// rocetb params convert --from paper|mlx5|hpcc-ns3 --to paper|mlx5|hpcc-ns3 [KEY=VALUE... | FILE]
//
// import: a NIC's and a switch's settings as scenario keys, each with its source file and
// line, written as a scenario that `rocetb run` accepts (checked by loading it); every value
// that is invalid, out of range, unknown, disabling or ambiguous in unit on stderr, one per
// line (FILE:LINE: key = value: reason). convert: DCQCN between the three conventions, each
// key with its formula, source and where it is approximate (lib/params/README.md).
// Exit 0 done, 1 the scenario would not load or could not be written, 2 bad input.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "apps/commands.h"
#include "core/write_file.h"
#include "params/conventions.h"
#include "params/dcqcn_check.h"
#include "params/scenario_text.h"
#include "params/source_text.h"
#include "params/sources.h"

namespace rtb::apps {
namespace {

struct ImportArgs {
  std::vector<std::string> sources;
  std::string format, out;
};

struct ConvertArgs {
  std::string from, to;
  std::vector<std::string> values;
};

int refuse(const char* who, const std::string& message) {
  print_error(who, message);
  return 2;
}

int run_import(const ImportArgs& a) {
  constexpr const char* kWho = "rocetb params import";
  params::Imported imported;
  for (const std::string& s : a.sources) {
    Expected<params::Kind> kind = Error{""};
    if (a.format.empty()) {
      kind = params::detect(s);
    } else if (auto k = params::kind_named(a.format)) {
      kind = *k;
    } else {
      return refuse(kWho, fmt::format("--format '{}': expected one of {}", a.format, params::kind_names()));
    }
    if (!kind) return refuse(kWho, kind.error().message);
    if (Status st = params::import_source(*kind, s, imported); !st) return refuse(kWho, st.message());
  }
  params::check_cc_params(imported);
  imported.sort_findings();
  for (const params::Finding& f : imported.findings()) std::cerr << params::format(f) << "\n";
  const std::string text = params::scenario_text(imported, a.sources);
  const std::string name = a.out.empty() ? "imported.toml" : a.out;
  if (Status st = params::check_loads(text, name); !st) {
    print_error(kWho, "the scenario would not load, so it is not written:\n" + st.message());
    return 1;
  }
  if (a.out.empty()) {
    std::cout << text;
  } else if (Status st = write_file_atomically(a.out, text); !st) {
    print_error(kWho, fmt::format("--out {}: not written: {}", a.out, st.message()));
    return 1;
  }
  std::cerr << fmt::format("{} keys imported, {} findings{}\n", imported.keys().size(), imported.findings().size(),
                           a.out.empty() ? "" : fmt::format("; scenario: {} (rocetb run {})", a.out, a.out));
  return 0;
}

// KEY=VALUE arguments, or one file of KEY = VALUE, KEY VALUE (config.txt) or
// `echo VALUE > .../cc_params/KEY` lines.
Expected<std::vector<params::GivenValue>> given_values(const std::vector<std::string>& values) {
  std::vector<params::GivenValue> out;
  if (values.size() == 1 && values[0].find('=') == std::string::npos) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(values[0], ec)) {
      return Error{
          fmt::format("'{}': expected KEY=VALUE, or one file of them (there is no file of that name)", values[0])};
    }
    auto text = params::read_source(values[0]);
    if (!text) return text.error();
    static const std::regex kEcho(R"(^\s*(?:sudo\s+)?echo\s+(\S+)\s*(?:>|\|\s*(?:sudo\s+)?tee)\s*\S*/(\S+)\s*$)");
    static const std::regex kPair(R"(^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:=\s*|\s+)(\S+)\s*$)");
    const std::vector<std::string> lines = params::split_lines(*text);
    for (size_t i = 0; i < lines.size(); ++i) {
      const std::string l = lines[i].substr(0, lines[i].find('#'));
      std::smatch m;
      const std::string where = fmt::format("{}:{}", values[0], i + 1);
      if (std::regex_match(l, m, kEcho)) {
        out.push_back({m[2].str(), m[1].str(), where});
      } else if (std::regex_match(l, m, kPair)) {
        out.push_back({m[1].str(), m[2].str(), where});
      }
    }
    return out;
  }
  for (size_t i = 0; i < values.size(); ++i) {
    const size_t eq = values[i].find('=');
    if (eq == std::string::npos || eq == 0) {
      return Error{fmt::format("'{}': expected KEY=VALUE (or a single file of them)", values[i])};
    }
    out.push_back({params::trim(values[i].substr(0, eq)), params::trim(values[i].substr(eq + 1)),
                   fmt::format("argument {}", i + 1)});
  }
  return out;
}

void print(const params::Conversion& c, params::Convention to) {
  for (const params::Converted& k : c.keys) {
    std::cout << params::key_line(to, k) << "\n";
    std::cout << "    from " << k.from << ": " << k.formula << "  [" << k.source << "]\n";
    if (!k.approximate.empty()) std::cout << "    approximate: " << k.approximate << "\n";
  }
  for (const std::string& d : c.dropped) std::cout << "not converted, no counterpart: " << d << "\n";
}

int run_convert(const ConvertArgs& a) {
  constexpr const char* kWho = "rocetb params convert";
  const auto from = params::convention_named(a.from);
  if (!from) return refuse(kWho, fmt::format("--from '{}': expected paper, mlx5 or hpcc-ns3", a.from));
  const auto to = params::convention_named(a.to);
  if (!to) return refuse(kWho, fmt::format("--to '{}': expected paper, mlx5 or hpcc-ns3", a.to));
  auto given = given_values(a.values);
  if (!given) return refuse(kWho, given.error().message);
  auto c = params::convert(*from, *to, *given);
  if (!c) return refuse(kWho, c.error().message);
  std::cout << fmt::format("# DCQCN from {} to {}{} ([KEYS]: the sources of cc_algos/dcqcn/README.md)\n", a.from, a.to,
                           a.values.empty() ? fmt::format(", {}'s defaults", a.from) : "");
  print(*c, *to);
  if (!c->skipped.empty()) {
    std::string list;
    for (const std::string& s : c->skipped) list += (list.empty() ? "" : ", ") + s;
    std::cerr << fmt::format("not DCQCN parameters of {}, not converted: {}\n", a.from, list);
  }
  return 0;
}

}  // namespace

Command add_params_command(CLI::App& app) {
  auto imp = std::make_shared<ImportArgs>();
  auto conv = std::make_shared<ConvertArgs>();
  CLI::App* cmd = app.add_subcommand("params",
                                     "import a NIC's and a switch's settings as a scenario; convert DCQCN "
                                     "parameters between conventions");
  cmd->require_subcommand(1);
  CLI::App* i = cmd->add_subcommand("import",
                                    "settings (cc_params, mlxconfig, mlnx_qos, SONiC config_db.json or CLI, "
                                    "HPCC config.txt, live) as scenario keys, with findings on stderr");
  i->add_option("sources", imp->sources, "files, folders of cc_params, or live[:DEVICE]")->required();
  i->add_option("--format", imp->format, "the kind of every source: " + params::kind_names());
  i->add_option("--out", imp->out, "write the scenario here (default: stdout)");
  CLI::App* c = cmd->add_subcommand("convert", "DCQCN parameters between the paper, mlx5 and the HPCC simulator");
  c->add_option("--from", conv->from, "paper, mlx5 or hpcc-ns3")->required();
  c->add_option("--to", conv->to, "paper, mlx5 or hpcc-ns3")->required();
  c->add_option("values", conv->values, "KEY=VALUE ... or one file (default: --from's defaults)");
  return [imp, conv, i] { return i->parsed() ? run_import(*imp) : run_convert(*conv); };
}

}  // namespace rtb::apps
