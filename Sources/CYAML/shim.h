#ifndef PRESSDB_CYAML_SHIM_H
#define PRESSDB_CYAML_SHIM_H
// libyaml (Debian: libyaml-dev, pkg-config yaml-0.1): the YAML parser `libinput record`
// recordings are read with.
#include <yaml.h>
#endif
