package main

//go:generate go run ../../cmd/rpcgen gen --input calc.json --out calcrpc --package calcrpc
