"""What a service does that its WADL does not say, hand-written, each fact with its provenance.

The WADL lazr.restful publishes leaves out what its marshallers and the
service's own code decide: which named-operation parameters take a list or
a dict (and of what), which lookups answer 404 rather than null, and where
each kind of entry lives. Those facts are kept here, once, apart from the
generated package (`wadlclient.launchpad`), and read by the testing kit
(`wadlclient.testing`), by stubgen's fixups (`wadlclient.stubgen.fixups`)
and by whatever turns Launchpad's web addresses into objects.

This package imports nothing of wadlclient but the bottom modules, so
every layer above may read it.

- `wadlclient.facts.launchpad`: list and dict parameters, found-or-404 lookups;
- `wadlclient.facts.launchpad_urls`: Launchpad's hosts and URL shapes.
"""
