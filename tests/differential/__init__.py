"""The differential tester: the same generated probes under stock lazr.restfulclient and on wadlclient."""
