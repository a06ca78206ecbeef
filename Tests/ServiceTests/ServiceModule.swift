// The service's tests land here with the service (rwatch serve).
import Service
