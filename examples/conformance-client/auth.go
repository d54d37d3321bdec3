package main

// authScenarios lists the auth/* scenarios.
func authScenarios() map[string]scenarioFunc {
	return map[string]scenarioFunc{}
}
