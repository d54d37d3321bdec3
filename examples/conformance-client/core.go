package main

// coreScenarios lists the scenarios that are not about authorization.
func coreScenarios() map[string]scenarioFunc {
	return map[string]scenarioFunc{}
}
