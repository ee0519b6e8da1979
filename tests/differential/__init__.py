"""The differential tester: the same probes under stock lazr.restfulclient and on wadlclient."""
