#include <cstdio>
#include <string>

#include "apps/commands.h"

namespace rtb::apps {

int command_line_error(CLI::App& app, const CLI::ParseError& e) {
  if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);  // --help, --version
  std::string who = "rocetb";
  const CLI::App* last = &app;
  while (!last->get_subcommands().empty()) {  // the deepest subcommand parsed: "rocetb bench tx"
    last = last->get_subcommands().front();
    who += " " + last->get_name();
  }
  std::string what = e.what();
  if (what.find("subcommand is required") != std::string::npos) {
    what = "SUBCOMMAND: expected one of";
    for (const CLI::App* sub : last->get_subcommands({})) what += " " + sub->get_name();
  }
  for (char& c : what) {
    if (c == '\n') c = ' ';
  }
  std::fprintf(stderr, "%s: %s; `%s --help` lists the options\n", who.c_str(), what.c_str(), who.c_str());
  return 2;
}

}  // namespace rtb::apps
