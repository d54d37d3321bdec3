package rpc

import (
	"errors"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/schemarpc/schemarpc/internal/jsondecode"
)

// OracleReason is DecodeReason for an error of the oracle,
// github.com/go-json-experiment/json: the words DecodeReason gave its
// errors when it was DecodeJSON's decoder, which DecodeReason must give
// ours. Other errors are told by DecodeReason. An error of ours that a
// method returned to the oracle is told as the oracle would have told its
// own in its place.
func OracleReason(err error) string {
	var sem *jsonv2.SemanticError
	var syn *jsontext.SyntacticError
	switch {
	case errors.As(err, &sem):
		return oracleSemanticReason(sem)
	case errors.As(err, &syn):
		return oracleSyntacticReason(syn)
	}
	return DecodeReason(err)
}

func oracleSemanticReason(e *jsonv2.SemanticError) string {
	var sem *jsonv2.SemanticError
	var syn *jsontext.SyntacticError
	var ours *DecodeError
	switch {
	case errors.As(e.Err, &ours) && !ours.Syntactic():
		// An UnmarshalJSON method that decodes with DecodeJSON: the
		// oracle would merge its own error into the one about the value.
		merged := *ours
		merged.Pointer = string(e.JSONPointer) + ours.Pointer
		return DecodeReason(&merged)
	case errors.As(e.Err, &ours):
		return DecodeReason(ours)
	case errors.Is(e.Err, jsonv2.ErrUnknownName):
		return "unknown member " + strconv.Quote(e.JSONPointer.LastToken()) + at(string(e.JSONPointer.Parent()))
	case errors.As(e.Err, &sem):
		return oracleSemanticReason(sem)
	case errors.As(e.Err, &syn):
		return oracleSyntacticReason(syn)
	case errors.Is(e.Err, strconv.ErrRange):
		return "a number out of range" + at(string(e.JSONPointer))
	case e.Err != nil && !decoderDetail(e.Err):
		return e.Err.Error() + at(string(e.JSONPointer))
	case e.GoType == nil || e.JSONKind == 0:
		return "cannot decode the value" + at(string(e.JSONPointer))
	}
	return kindFound(jsondecode.Kind(e.JSONKind).String()) + " where " + kindExpected(e.GoType) + " is expected" + at(string(e.JSONPointer))
}

func oracleSyntacticReason(e *jsontext.SyntacticError) string {
	what := "invalid JSON"
	if e.Err != nil {
		what = strings.TrimPrefix(e.Err.Error(), "jsontext: ")
	}
	if errors.Is(e.Err, jsontext.ErrDuplicateName) {
		return "duplicate member name " + strconv.Quote(e.JSONPointer.LastToken()) + at(string(e.JSONPointer.Parent()))
	}
	return what + at(string(e.JSONPointer))
}
