// The service behind `rwatch serve`: see ARCHITECTURE.md once it lands.
