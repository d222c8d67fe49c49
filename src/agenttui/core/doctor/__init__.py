"""`agenttui doctor`: checks of the install, the configuration and the endpoint."""
