package programs_test

import (
	"github.com/schemarpc/schemarpc/bench/servers/internal/programs/gosdk"
	"github.com/schemarpc/schemarpc/bench/servers/internal/programs/limit"
	"github.com/schemarpc/schemarpc/bench/servers/internal/programs/mcpgo"
	"github.com/schemarpc/schemarpc/bench/servers/internal/programs/schemarpc"
	"github.com/schemarpc/schemarpc/bench/servers/internal/serve"
)

// all lists the four programs, as their commands serve them.
var all = []serve.Program{schemarpc.Program, gosdk.Program, mcpgo.Program, limit.Program}
